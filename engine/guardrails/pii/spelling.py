"""How a number is spelled, read past the spelling, in linear time: the text's skeleton.

An identifier reaches Navod in any spelling of the same digits: grouped by spaces, dots,
dashes, commas, underscores, apostrophes, brackets, tabs or line breaks; in Arabic-Indic,
full-width, circled, superscript or keycap digits; with zero-width, combining, variation,
tag or Hangul filler characters slipped in; split by a short word ("69435 pa 151530"). The
skeleton reads the text one character for one character (so a span of the skeleton is the
same span of the text, every character as written included):

- a character with a digit value (Unicode Nd, circled, superscript, keycap) is its ASCII digit;
- a letter whose NFKC form is one ASCII letter is that letter in upper case, any other letter
  is LETTER;
- whitespace, punctuation and spacing modifiers are separators, read as " " (whitespace), ".",
  ",", "-", "/" or "_" (any other punctuation: the kinds the other readings of a number and the
  words between numbers care about);
- what draws nothing or only modifies the character before it (combining marks, variation
  selectors, format characters such as tags and joiners, Hangul fillers) is IGNORED;
- a character worth a number of several digits ("⑩") is MANY (detect.py reads the text again
  with it written out); anything else (a symbol, a currency or percent sign) is OTHER and
  ends a number.

Numbers are then cut out of the skeleton by a pattern of single character classes (one
quantifier, nothing nested, so no backtracking); Python looks only at the groups and at what
stands between them: a few separators, or one short word between spaces.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from typing import NamedTuple

IGNORED = "\x00"
LETTER = "\x01"
OTHER = "\x02"
MANY = "\x03"
SEPARATORS = " .,-/_"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + LETTER
# More separators than this between two digits and they belong to two numbers (the output
# guard joins a response's fields with twelve line breaks); invisible characters do not count.
MAX_SEPARATORS = 8
# A word of at most this many letters between two groups of digits may split one number.
SHORT_WORD = 3

# Digits written together, with the ignored characters that modify them.
_GROUP = re.compile(f"[0-9][0-9{IGNORED}]*")
_MANY = re.compile(MANY)
_DROP_IGNORED = str.maketrans("", "", IGNORED)
_DROP_GAPS = str.maketrans("", "", SEPARATORS + IGNORED)
# Characters that draw nothing whatever their category says: Hangul fillers (letters), the
# braille blank (a symbol), tags and variation selectors (also when unassigned).
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_INVISIBLE_RANGES = ((0xFE00, 0xFE0F), (0xE0000, 0xE007F), (0xE0100, 0xE01EF))
_PERCENT = frozenset("%‰‱٪")
_DASH = frozenset("\u2212\u2796\ufe63\uff0d")  # minus signs drawn like dashes
_SLASH = frozenset("\u2044\u2215\u29f8")  # fraction and division slashes


def _read(char: str) -> str:
    """The skeleton character of one character of text."""
    code = ord(char)
    if char in _BLANK or any(low <= code <= high for low, high in _INVISIBLE_RANGES):
        return IGNORED
    digit = unicodedata.digit(char, None)
    if digit is not None:
        return str(digit)
    category = unicodedata.category(char)
    if category in ("Mn", "Me", "Cf"):
        return IGNORED
    if category == "Cc":
        return " " if char.isspace() else IGNORED
    value = unicodedata.numeric(char, None)
    if value is not None and value >= 0 and value == int(value):
        return str(int(value)) if value < 10 else MANY
    nfkc = unicodedata.normalize("NFKC", char)
    if len(nfkc) == 1 and nfkc.isascii() and nfkc.isalpha():
        return nfkc.upper()
    if nfkc in _PERCENT or char in _PERCENT:
        return OTHER  # a percentage, an amount: it ends the number
    if nfkc in (".", ",", "/"):
        return nfkc
    if category == "Pd" or char in _DASH:
        return "-"
    if char in _SLASH:
        return "/"
    if category[0] == "Z" or char.isspace():
        return " "
    if category[0] == "P" or category in ("Lm", "Sk"):
        return "_"  # brackets, quotes, underscores, other punctuation, spacing accents
    return LETTER if category[0] == "L" else OTHER


class _Skeleton(dict[int, str]):
    """A str.translate table from each character to its skeleton character, filled on demand
    and bounded, whatever text arrives."""

    _LIMIT = 20_000

    def __missing__(self, code: int) -> str:
        read = _read(chr(code))
        if len(self) < self._LIMIT:
            self[code] = read
        return read


_TABLE = _Skeleton({code: _read(chr(code)) for code in range(128)})


def skeleton(text: str) -> str:
    """The text read as digits, letters and separators, one character for each of `text`."""
    return text.translate(_TABLE)


class WrittenOut(NamedTuple):
    """A text with every character worth several digits written as its digits ("⑩" as
    "10"), and where each such character went."""

    text: str
    starts: list[int]  # where each written-out character starts in `text`
    ends: list[int]  # and ends
    origins: list[int]  # its index in the original text

    def origin(self, index: int) -> int:
        """The index in the original text of the character that text[index] comes from."""
        at = bisect_right(self.starts, index) - 1
        if at < 0:
            return index
        if index < self.ends[at]:
            return self.origins[at]
        return self.origins[at] + 1 + index - self.ends[at]


def written_out(text: str, shadow: str) -> WrittenOut:
    """`text` (of skeleton `shadow`) with every character worth several digits written out."""
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    origins: list[int] = []
    position = length = 0
    for many in _MANY.finditer(shadow):
        index = many.start()
        pieces.append(text[position:index])
        length += index - position
        digits = str(int(unicodedata.numeric(text[index])))
        pieces.append(digits)
        starts.append(length)
        length += len(digits)
        ends.append(length)
        origins.append(index)
        position = index + 1
    pieces.append(text[position:])
    return WrittenOut("".join(pieces), starts, ends, origins)


class Group(NamedTuple):
    """Digits written together (ignored characters inside are skipped, not splitting)."""

    digits: str  # ASCII digits
    start: int  # the span in the original text
    end: int  # past the ignored characters after the last digit (a keycap, a combining mark)
    gap: str  # the skeleton before it in its run, ignored characters left out
    word: bool  # whether a short word stands in that gap (the group opens a new segment)


def digit_runs(shadow: str) -> list[list[Group]]:
    """The skeleton's numbers: each a run of digit groups joined by separators (at most
    MAX_SEPARATORS of them between two groups) or by one short word."""
    runs: list[list[Group]] = []
    run: list[Group] = []
    previous_end = 0
    for match in _GROUP.finditer(shadow):
        gap, raw = shadow[previous_end : match.start()], match.group()
        previous_end = match.end()
        if IGNORED in gap:
            gap = gap.translate(_DROP_IGNORED)
        word = False
        if run and (len(gap) > MAX_SEPARATORS or gap.strip(SEPARATORS)):
            word = " " in gap and _is_short_word(gap)
            if not word:
                runs.append(run)
                run = []
        digits = raw.translate(_DROP_IGNORED) if IGNORED in raw else raw
        run.append(Group(digits, match.start(), match.end(), gap, word))
    if run:
        runs.append(run)
    return runs


def _is_short_word(gap: str) -> bool:
    """Whether a gap (ignored characters left out) between two groups of digits is one word
    of at most SHORT_WORD letters with whitespace just before and after it, and at most
    MAX_SEPARATORS separators on each side. A letter in brackets or before a dot is a
    reference ("401(a)(17)", "01001.010 A.1"), not a word between two numbers."""
    word = gap.strip(SEPARATORS)
    if not 0 < len(word) <= SHORT_WORD or word.strip(LETTERS):
        return False  # no word, a longer one, or more than a word (a symbol, two words)
    before = gap.index(word)
    after = before + len(word)
    return (
        0 < before <= MAX_SEPARATORS
        and 0 < len(gap) - after <= MAX_SEPARATORS
        and gap[before - 1] == gap[after] == " "
    )


def letters_and_digits(shadow: str) -> str:
    """The skeleton with its separators and ignored characters left out (what an IBAN is
    read from)."""
    return shadow.translate(_DROP_GAPS)
