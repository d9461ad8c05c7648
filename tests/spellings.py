"""Identifiers and the ways people and attackers spell them, as hypothesis strategies.

Valid identifiers of every type are generated with their check digits computed (OIB mod 11,10,
BSN elfproef, SSN issuing rules, card Luhn, IBAN mod 97) and then spelled, not picked from a
list of spellings: every digit in a form drawn from many (ASCII, Arabic-Indic, Bengali, Thai,
full-width, mathematical, circled, negative circled, superscript, subscript, parenthesised,
with a full stop or a comma, keycap), every letter of an IBAN in upper, lower, full-width,
circled or mathematical form; the characters split into groups at random or in the usual
groupings, the groups joined by one to four characters of one class of separators (spaces,
control whitespace, connectors, dashes, other punctuation, brackets and quotes, or nothing
visible at all); invisible characters (combining marks, variation selectors, tags, format
characters, Hangul fillers) slipped in after any character; one short word between spaces
splitting two groups.

An identifier is `named` when a keyword stands before it ("OIB", "ssn#", "kartica"): the guard
then reads it in any grouping. A bare identifier is read in its usual groupings only (digit by
digit too, an IBAN in any grouping; a word splits it into two groups of digits and no more,
so only an OIB, "69435 pa 151530"), and not where its digits have another reading a person
would give them (a year range, two round numbers with a word between them:
tests/test_pii_readings.py holds those).
"""

from __future__ import annotations

import functools
import itertools
import unicodedata
from dataclasses import dataclass

from hypothesis import assume
from hypothesis import strategies as st
from stdnum import iban, luhn
from stdnum.iso7064 import mod_11_10
from stdnum.us import ssn


@dataclass(frozen=True)
class Identifier:
    kind: str
    value: str  # ASCII digits; an IBAN in upper case
    shapes: tuple[tuple[int, ...], ...]  # how people group it


def _digits(count: int) -> st.SearchStrategy[str]:
    return st.text("0123456789", min_size=count, max_size=count)


@st.composite
def oibs(draw: st.DrawFn) -> Identifier:
    body = draw(_digits(10))
    shapes = ((11,), (3, 3, 3, 2), (3, 4, 4), (4, 4, 3), (2, 3, 3, 3), (5, 6), (6, 5))
    return Identifier("OIB", body + mod_11_10.calc_check_digit(body), shapes)


@st.composite
def bsns(draw: st.DrawFn) -> Identifier:
    body = draw(_digits(8))
    check = sum(weight * int(d) for weight, d in zip(range(9, 1, -1), body, strict=True)) % 11
    assume(check < 10)
    return Identifier("BSN", body + str(check), ((9,), (3, 3, 3), (4, 2, 3)))


@st.composite
def ssns(draw: st.DrawFn) -> Identifier:
    number = draw(_digits(9))
    assume(ssn.is_valid(number))
    return Identifier("SSN", number, ((9,), (3, 2, 4), (3, 3, 3)))


@st.composite
def cards(draw: st.DrawFn) -> Identifier:
    prefix = draw(st.sampled_from(["4", "51", "52", "53", "54", "55", "2221", "6011", "34", "37"]))
    amex = prefix in ("34", "37")
    body = prefix + draw(_digits((14 if amex else 15) - len(prefix)))
    shapes = ((15,), (4, 6, 5), (4, 4, 4, 3)) if amex else ((16,), (4, 4, 4, 4))
    return Identifier("CARD", body + luhn.calc_check_digit(body), shapes)


@st.composite
def ibans(draw: st.DrawFn) -> Identifier:
    country = draw(st.sampled_from(["HR", "DE", "NL", "GB"]))
    letters = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=4, max_size=4)
    if country == "NL":
        bban = draw(letters) + draw(_digits(10))
    elif country == "GB":
        bban = draw(letters) + draw(_digits(14))
    else:
        bban = draw(_digits(17 if country == "HR" else 18))
    number = country + iban.calc_check_digits(country + "00" + bban) + bban
    assume(iban.is_valid(number))
    fours = tuple([4] * (len(number) // 4) + ([len(number) % 4] if len(number) % 4 else []))
    return Identifier("IBAN", number, ((len(number),), fours))


BY_KIND: dict[str, st.SearchStrategy[Identifier]] = {
    kind: strategy.filter(lambda i: len(set(i.value)) >= 4)  # "00000000001": a run of ids?
    for kind, strategy in (
        ("OIB", oibs()),
        ("BSN", bsns()),
        ("SSN", ssns()),
        ("CARD", cards()),
        ("IBAN", ibans()),
    )
}
IDENTIFIERS = st.one_of(*BY_KIND.values())


def _forms(zero: int, one: int) -> tuple[str, ...]:
    return (chr(zero), *(chr(one + d) for d in range(9)))


# Each form: the ten digits, 0 to 9 (a form with no zero borrows the circled one).
DIGIT_FORMS: dict[str, tuple[str, ...]] = {
    "ascii": _forms(0x30, 0x31),
    "arabic-indic": _forms(0x0660, 0x0661),
    "extended arabic-indic": _forms(0x06F0, 0x06F1),
    "devanagari": _forms(0x0966, 0x0967),
    "bengali": _forms(0x09E6, 0x09E7),
    "thai": _forms(0x0E50, 0x0E51),
    "full-width": _forms(0xFF10, 0xFF11),
    "mathematical bold": _forms(0x1D7CE, 0x1D7CF),
    "mathematical monospace": _forms(0x1D7F6, 0x1D7F7),
    "circled": _forms(0x24EA, 0x2460),
    "negative circled": _forms(0x24FF, 0x2776),
    "sans-serif circled": _forms(0x24EA, 0x2780),
    "superscript": ("\u2070", "\u00b9", "\u00b2", "\u00b3", *(chr(0x2074 + d) for d in range(6))),
    "subscript": _forms(0x2080, 0x2081),
    "parenthesised": _forms(0x24EA, 0x2474),
    "full stop": _forms(0x1F100, 0x2488),
    "comma": _forms(0x1F101, 0x1F102),
    "keycap": tuple(f"{d}\ufe0f\u20e3" for d in range(10)),
    "keycap without selector": tuple(f"{d}\u20e3" for d in range(10)),
}
LETTER_FORMS = {
    "upper": 0x41,
    "lower": 0x61,
    "full-width": 0xFF21,
    "circled": 0x24B6,
    "mathematical bold": 0x1D400,
    "mathematical sans-serif": 0x1D5A0,
}
# Separators by Unicode class; "invisible" joins groups with what draws nothing at all.
SEPARATOR_CLASSES: dict[str, str] = {
    "spaces": " \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u202f\u205f\u3000",
    "control": "\n\t\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029",
    "connectors": "_\u203f\u2040\u2054\ufe33\ufe34\ufe4d\ufe4e\ufe4f\uff3f",
    "dashes": "-\u2010\u2011\u2012\u2013\u2014\u2015\u2e3a\u2e3b\u301c\ufe58\ufe63\uff0d\u2212",
    "punctuation": ",.'\u00b7*#:;!?\"\\&@/\u2022\u2024\u2026\u2027\u0387\u055d\u060c\u3001\u3002"
    "\uff0c\uff0e\uff0f\uff1a",
    "brackets and quotes": "()[]{}\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u00ab\u00bb\u2039"
    "\u203a\u2045\u2046\u27e8\u27e9\u300c\u300d\u3010\u3011\uff08\uff09",
    "invisible": "\u200b\u200c\u200d\u2060\u2061\u2063\u00ad\ufeff\u200e\u200f\u061c\u180e"
    "\u3164\u115f\u1160\uffa0\U000e0001\U000e0020\U000e0031\U000e0061\U000e007f",
}
# Slipped in after any character: combining and enclosing marks, variation selectors, tag
# characters, format characters, Hangul fillers.
INVISIBLE = (
    *"\u0300\u0301\u0308\u0327\u0336\u0338\u034f\u20d0\u20dd\u20de\u20e3\u0488",
    *(chr(code) for code in range(0xFE00, 0xFE10)),
    *"\U000e0100\U000e0101\U000e01ef",
    *"\U000e0000\U000e0001\U000e0020\U000e0030\U000e0039\U000e0041\U000e007a\U000e007f",
    *"\u200b\u200c\u200d\u2060\u2062\u00ad\ufeff\u200e\u202a\u202c\u2066\u2069\u061c\u180e",
    *"\u3164\u115f\u1160\uffa0",
)
# Short words an identifier may be split by: no keyword, no currency, no money word.
SHORT_WORDS = ("pa", "i", "a", "je", "to", "en", "of", "x", "ok", "da", "ja", "še", "ili", "and")
LABELS = {
    "OIB": ("OIB", "oib:", "osobni identifikacijski broj"),
    "BSN": ("BSN", "bsn:", "burgerservicenummer", "sofinummer"),
    "SSN": ("SSN", "ssn#", "social security"),
    "CARD": ("card", "kartica", "creditcard", "kaartnummer"),
    "IBAN": ("IBAN", "iban:"),
}


@dataclass(frozen=True)
class Spelled:
    """An identifier as written: `text`, and the span in it every character of it takes."""

    identifier: Identifier
    text: str
    start: int
    end: int


# Strategies built once: hypothesis validates a strategy on first use, and spelling draws
# several for every character.
_CHANCE = st.integers(0, 5)
_DIGIT_FORM_NAMES = sorted(DIGIT_FORMS)
_LETTER_FORM_NAMES = sorted(LETTER_FORMS)
_DIGIT_FORM = st.integers(0, 6 * len(DIGIT_FORMS) - 1)
_LETTER_FORM = st.integers(0, 6 * len(LETTER_FORMS) - 1)
_SLIPPED_IN = st.lists(st.sampled_from(INVISIBLE), max_size=3).map("".join)
_JOINTS = {
    name: (
        st.lists(st.sampled_from(chars), min_size=1, max_size=4).map("".join),
        st.lists(st.sampled_from(chars), max_size=2).map("".join),
    )
    for name, chars in SEPARATOR_CLASSES.items()
}
_WORD = st.sampled_from(SHORT_WORDS)
_HOW = st.sampled_from(["random", "usual", "one by one"])
_SUFFIX = st.sampled_from(["", "kn", " kn"])
_LABEL = {kind: st.sampled_from(labels) for kind, labels in LABELS.items()}


@st.composite
def spellings(draw: st.DrawFn, value: Identifier, joints: str, *, named: bool) -> Spelled:
    """`value` spelled with separators of the class `joints` (its name in
    SEPARATOR_CLASSES), perhaps one short word between two groups and a keyword before it."""
    groups = _groups(draw, value, named=named)
    word_at = -1
    if value.kind != "IBAN" and draw(_CHANCE) < 2:
        # (one by one: a word between two digits; invisible joints write no digit apart)
        if named or (len(groups) == len(value.value) and joints != "invisible"):
            word_at = draw(st.integers(1, len(groups) - 1)) if len(groups) > 1 else -1
        elif value.kind == "OIB":  # unnamed, a word splits a number in two groups, no more
            cut = draw(st.integers(2, len(value.value) - 2))
            groups = [value.value[:cut], value.value[cut:]]
            word_at = 1
            # two round numbers and a word between them read as a range
            assume(not (groups[0].endswith("0") and groups[1].endswith("0")))
    if not named and value.kind != "IBAN":
        assume(not _year_range(groups))
    joint, after_word = _JOINTS[joints]
    chars: list[str] = []
    for index, group in enumerate(groups):
        if index == word_at and not named:  # "69435 pa 151530"
            chars.append(" " + draw(_WORD) + " ")
        elif index == word_at:  # a word between spaces, anything around them
            chars.append(draw(joint) + " " + draw(_WORD) + " " + draw(after_word))
        elif index:
            chars.append(draw(joint))
        for char in group:
            # one draw for the form and whether invisible characters follow (one time in six)
            if char.isdigit():
                form, slip = divmod(draw(_DIGIT_FORM), 6)
                chars.append(DIGIT_FORMS[_DIGIT_FORM_NAMES[form]][int(char)])
            else:
                form, slip = divmod(draw(_LETTER_FORM), 6)
                chars.append(chr(LETTER_FORMS[_LETTER_FORM_NAMES[form]] + ord(char) - 65))
            if slip == 5:
                chars.append(draw(_SLIPPED_IN))
    spelled = "".join(chars)
    label = draw(_LABEL[value.kind]) + " " if named else ""
    suffix = draw(_SUFFIX) if value.kind == "OIB" else ""
    return Spelled(value, label + spelled + suffix, len(label), len(label) + len(spelled))


def _groups(draw: st.DrawFn, value: Identifier, *, named: bool) -> list[str]:
    """The identifier's characters in groups: at random (named, or an IBAN), in a usual
    grouping, or one by one."""
    how = draw(_HOW)
    if how == "random" and (named or value.kind == "IBAN"):
        cuts = draw(_cuts(len(value.value)))
        bounds = [0, *sorted(cuts), len(value.value)]
        return [value.value[a:b] for a, b in itertools.pairwise(bounds)]
    if how == "one by one":
        return list(value.value)
    groups, at = [], 0
    for size in draw(_SHAPES[value.shapes]):
        groups.append(value.value[at : at + size])
        at += size
    return groups


@functools.cache
def _cuts(length: int) -> st.SearchStrategy[set[int]]:
    return st.sets(st.integers(1, length - 1), max_size=length // 2)


class _Shapes(dict[tuple[tuple[int, ...], ...], st.SearchStrategy[tuple[int, ...]]]):
    def __missing__(
        self, shapes: tuple[tuple[int, ...], ...]
    ) -> st.SearchStrategy[tuple[int, ...]]:
        self[shapes] = st.sampled_from(shapes)
        return self[shapes]


_SHAPES = _Shapes()


def _year_range(groups: list[str]) -> bool:
    """Whether two neighbouring groups read as years, the first before the second."""
    return any(
        len(a) == len(b) == 4 and 1900 <= int(a) < int(b) <= 2099
        for a, b in itertools.pairwise(groups)
    )


# No digit, keyword or money word: a number grouped in thousands next to a money word reads
# as an amount ("123 456 789 PDV", readings.py), unless a keyword names the identifier.
WORDS = (
    *("koliko", "moj", "račun", "je", "hvala", "stopa", "obrt", "molim", "broj", "pitanje"),
    *("mijn", "nummer", "graag", "wat", "is", "het", "tarief", "aangifte", "bedankt"),
    *("my", "number", "please", "what", "is", "the", "limit", "for", "IRA", "thanks"),
)
PUNCTUATION = (",", ".", ";", ":", "!", "?", "(", ")", '"', "'", "—", "…")


_WORDS = st.lists(
    st.tuples(st.sampled_from(WORDS), st.sampled_from(["", *PUNCTUATION])), max_size=6
)
SURROUNDINGS = _WORDS.map(lambda words: "".join(f"{word}{mark} " for word, mark in words))
_BEFORE = st.sampled_from(["", ": ", "(", "\u00a0"])
_AFTER = st.sampled_from([" ", ", ", ". ", ") ", "? "])
_JOINT_CLASS = st.sampled_from(sorted(SEPARATOR_CLASSES))


@st.composite
def sentences(
    draw: st.DrawFn,
    joints: str | None = None,
    *,
    named: bool | None = None,
    identifiers: st.SearchStrategy[Identifier] = IDENTIFIERS,
) -> Spelled:
    """A question with one identifier spelled in it (the span moved to where it stands); the
    class of separators and whether a keyword names it drawn when not given."""
    joints = joints or draw(_JOINT_CLASS)
    named = draw(st.booleans()) if named is None else named
    spelled = draw(spellings(draw(identifiers), joints, named=named))
    before = draw(SURROUNDINGS) + draw(_BEFORE)
    after = draw(_AFTER) + draw(SURROUNDINGS)
    return Spelled(
        spelled.identifier,
        before + spelled.text + after,
        len(before) + spelled.start,
        len(before) + spelled.end,
    )


@st.composite
def written(draw: st.DrawFn) -> Spelled:
    """An identifier of any type spelled with separators of any class, alone."""
    named = draw(st.booleans())
    return draw(spellings(draw(IDENTIFIERS), draw(_JOINT_CLASS), named=named))


@st.composite
def names(draw: st.DrawFn) -> tuple[Identifier, str]:
    """A name as the facts API accepts one (^[a-z][a-z0-9_]{0,63}$) hiding an identifier: its
    characters split at random by underscores or, between digits, short words."""
    value = draw(IDENTIFIERS)
    pieces = [draw(st.sampled_from(["x", "id", "n", "moj_", "fact_", "oib", "bsn"]))]
    for index, char in enumerate(value.value.lower()):
        if index:
            joint = draw(st.sampled_from(["", "", "_", "__"]))
            if value.kind != "IBAN" and draw(st.integers(0, 5)) == 0:
                joint += draw(st.sampled_from(["pa", "i", "x", "and", "ok"])) + joint
            pieces.append(joint)
        pieces.append(char)
    name = "".join(pieces)
    assume(len(name) <= 64)
    return value, name


def digits_in(text: str) -> str:
    """Every character of `text` with a digit value, as its ASCII digit, in order."""
    found = []
    for char in text:
        digit = unicodedata.digit(char, None)
        if digit is not None:
            found.append(str(digit))
    return "".join(found)
