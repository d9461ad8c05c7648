"""OIB, BSN, SSN and card numbers in any spelling: every window of whole digit groups of the
skeleton (spelling.py) of an identifier's length is checked with python-stdnum, then against
the other readings of its digits (an amount, a date, a year range, a range of round numbers).

Which groupings count: an OIB in any grouping of groups of two or more digits (or digit by
digit); a nine-digit number as 9, 3-2-4 (SSN), 3-3-3 or 4-2-3 (BSN), or digit by digit; a
card as one group, groups of four (the last may be shorter), 4-6-5 / 4-6-4, or digit by
digit. One short word may stand between two groups ("69435 pa 151530"). With a keyword
naming the identifier just before it, any grouping, and no other reading counts. A window of
single-digit groups must be all of them ("5 13 25 2024" is a list, not an SSN). Each window
start looks at most at 19 digits ahead, so the scan is linear in the text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import NamedTuple

from stdnum import luhn
from stdnum.hr import oib
from stdnum.nl import bsn
from stdnum.us import ssn

from engine.guardrails.pii.findings import PiiType
from engine.guardrails.pii.readings import (
    Keywords,
    amount_after,
    amount_before,
    dates_and_years,
    grouped_thousands,
    in_web_address,
    is_amount,
    money_words_next_to,
)
from engine.guardrails.pii.spelling import Group, digit_runs

_LONGEST = 19
_NINE_DIGIT_SHAPES = frozenset({(9,), (3, 2, 4), (3, 3, 3), (4, 2, 3)})
_CARD_SHAPES = frozenset({(4, 6, 5), (4, 6, 4)})
# A dot or a comma alone between digits joins a number's thousands or decimals: an unnamed
# identifier never starts or ends there. A comma and a space between numbers lists them.
_NUMBER_GAPS = frozenset({".", ","})
# Issuer prefixes of the card networks (Visa, Mastercard, Amex, Discover, JCB, Diners,
# UnionPay, Maestro): a Luhn-valid number outside them is more likely an account reference.
_CARD_PREFIXES = (
    *("4", "5", "6"),
    *("22", "23", "24", "25", "26", "27"),
    *("30", "34", "35", "36", "37", "38", "39"),
)


class NumberCandidate(NamedTuple):
    """A valid identifier's digits at a span; `other_reading` when they also read as an
    amount, a date or a year range (personal data then only if the same digits are found as
    an identifier elsewhere in the text), `bare` when no keyword named it."""

    type: PiiType
    start: int
    end: int
    digits: str
    other_reading: bool
    bare: bool


def find_numbers(text: str, shadow: str, dutch: Callable[[], bool]) -> Iterator[NumberCandidate]:
    """Every window of digit groups of the skeleton `shadow` of `text` that a checksum
    accepts; `dutch` says (lazily) whether the text is Dutch, which names a nine-digit number
    valid both as a BSN and as an SSN."""
    keywords = Keywords(text)
    for run in digit_runs(shadow):
        sizes = [len(group.digits) for group in run]
        if sum(sizes) >= 9:  # shorter: amounts, dates and years, nothing to check
            yield from _run_candidates(text, run, sizes, keywords, dutch)


def _run_candidates(
    text: str,
    run: Sequence[Group],
    sizes: Sequence[int],
    keywords: Keywords,
    dutch: Callable[[], bool],
) -> Iterator[NumberCandidate]:
    count = len(run)
    # Groups before each index that read as a date, year or amount (with and without kuna).
    readings: dict[bool, list[int]] = {}
    # The last group and digit count of the latest identifier found: a window starting inside
    # it with no more digits would lose to it anyway, so it is not checked.
    covered, covered_total = -1, 0
    apart_before = [_parts(group.gap) for group in run]

    for first in range(count):
        keyword = keywords.before(run[first].start)
        single = sizes[first] == 1
        inside = single and first > 0 and sizes[first - 1] == 1  # a digit-by-digit spelling
        if inside and keyword is None:
            continue  # a digit-by-digit spelling is a whole number, never part of one
        total, word, mixed, apart = 0, -1, False, False
        for last in range(first, count):
            size = sizes[last]
            total += size
            if last > first and run[last].word:
                if word >= 0:
                    break  # a second word: two numbers, or three
                word = last
            mixed = mixed or (size == 1) != single
            apart = apart or (last > first and apart_before[last])
            if total > _LONGEST or (keyword is None and mixed):
                break  # single digits mixed with groups: two numbers side by side
            if keyword is None and last > first and total >= 13 and sizes[first] not in (1, 4):
                break  # every grouped card spelling starts with four digits
            if (total != 9 and total != 11 and total < 13) or (
                first <= covered and total <= covered_total
            ):
                continue
            # A card's name says nothing of a shorter number: that one is read as unnamed.
            named = keyword if keyword != "CARD" or total >= 13 else None
            if named is None and (
                mixed or inside or apart or not _spelled_as(sizes, first, last, total, word)
            ):
                continue  # two numbers, or not an identifier's usual grouping
            digits = "".join(group.digits for group in run[first : last + 1])
            kind = _kind(digits, named, dutch)
            if kind is None:
                continue
            other = False
            if named is None:
                kuna = kind != "OIB"
                if kuna not in readings:
                    readings[kuna] = _readings(text, run, kuna=kuna)
                taken = readings[kuna]
                other = taken[last + 1] > taken[first] or _reads_otherwise(
                    text, run, first, last, word, kuna=kuna
                )
            if not other:
                covered, covered_total = max(covered, last), total
            yield NumberCandidate(
                kind, run[first].start, run[last].end, digits, other, named is None
            )


def _reads_otherwise(
    text: str, run: Sequence[Group], first: int, last: int, word: int, *, kuna: bool
) -> bool:
    """Whether the unnamed groups run[first:last + 1] read as an amount or a range: a
    currency or percent next to them, a decimal comma joining them to the next digits, or a
    word between two round numbers ("između 50000 i 150000")."""
    opens = first == 0 or run[first].word
    closes = last == len(run) - 1 or run[last + 1].word
    if opens and in_web_address(text, run[first].start):
        return True  # a path or a query: .../2023_10_114_1613.html
    if opens and amount_before(text, run[first].start, kuna=kuna):
        return True
    if closes and amount_after(text, run[last].end, kuna=kuna):
        return True
    if (not opens and run[first].gap in _NUMBER_GAPS) or (
        not closes and run[last + 1].gap in _NUMBER_GAPS
    ):
        return True  # part of a number in thousands or decimals: 1,234567890, 995.421,06 2023
    if word < 0:
        return False
    before, after = run[word - 1], run[word]
    # any currency, kuna included: "25000 kn 123456" and "2023: EUR 47,780" are amounts
    round_numbers = len(before.digits) > 1 and before.digits[-1] == run[last].digits[-1] == "0"
    return amount_after(text, before.end) or amount_before(text, after.start) or round_numbers


def _parts(gap: str) -> bool:
    """Whether whitespace and a comma, full stop or other punctuation (not a dash or a slash)
    stand between two groups: a list, a sentence, a bracket closing ("57/06., 146/08",
    "2025-67): 401(k)"), not one number."""
    return " " in gap and ("," in gap or "." in gap or "_" in gap)


def _readings(text: str, run: Sequence[Group], *, kuna: bool) -> list[int]:
    """How many of the run's first i groups read as a date, a year range or an amount written
    with thousands grouping (`kuna`: the kuna counts as a currency), for every i."""
    taken = dates_and_years(run)
    opened = 0
    for index in range(1, len(run) + 1):
        if index == len(run) or run[index].word:
            segment = run[opened:index]
            start, end = segment[0].start, segment[-1].end
            if grouped_thousands(segment) and (
                is_amount(text, start, end, kuna=kuna) or money_words_next_to(text, start, end)
            ):
                taken.update(range(opened, index))
            opened = index
    counts = [0]
    for index in range(len(run)):
        counts.append(counts[-1] + (index in taken))
    return counts


def _spelled_as(sizes: Sequence[int], first: int, last: int, total: int, word: int) -> bool:
    """Whether unnamed groups of sizes[first:last + 1] (none of them single digits, or all)
    spell one identifier of `total` digits: digit by digit to the last digit, one group, two
    groups around a word (`word`: the index of the group after it, -1 for none), or a usual
    grouping."""
    if sizes[first] == 1:
        return last + 1 == len(sizes) or sizes[last + 1] != 1
    if word >= 0 and (word != first + 1 or last != word):
        return False  # a word splits a number in two groups, no more
    shape = tuple(sizes[first : last + 1])
    if len(shape) == 1 or total == 11:
        return True
    if total == 9:
        return shape in _NINE_DIGIT_SHAPES
    return shape in _CARD_SHAPES or (all(size == 4 for size in shape[:-1]) and shape[-1] <= 4)


def identifier_kind(digits: str) -> PiiType | None:
    """The identifier these 9, 11 or 13 to 19 digits are, if a checksum accepts them (a BSN
    before an SSN)."""
    return _kind(digits, None, lambda: True) if 9 <= len(digits) <= _LONGEST else None


def _kind(digits: str, keyword: PiiType | None, dutch: Callable[[], bool]) -> PiiType | None:
    if len(digits) == 11:
        return "OIB" if _valid_oib(digits) else None
    if len(digits) == 9:
        return _nine_digit_kind(digits, keyword, dutch)
    return "CARD" if _valid_card(digits) else None


def _nine_digit_kind(
    digits: str, keyword: PiiType | None, dutch: Callable[[], bool]
) -> PiiType | None:
    if keyword == "SSN":  # the text says which; a number failing its own check is no identifier
        return "SSN" if _valid_ssn(digits) else None
    if keyword == "BSN":
        return "BSN" if _valid_bsn(digits) else None
    is_ssn, is_bsn = _valid_ssn(digits), _valid_bsn(digits)
    if is_bsn and (not is_ssn or dutch()):
        return "BSN"
    return "SSN" if is_ssn else None


# Recently checked digits are remembered: an attacker repeating one number pays a dict lookup,
# not a checksum, for every copy (bounded, so no text can grow the process).
@lru_cache(maxsize=4096)
def _valid_oib(digits: str) -> bool:
    return bool(oib.is_valid(digits))


@lru_cache(maxsize=4096)
def _valid_ssn(digits: str) -> bool:
    return bool(ssn.is_valid(digits))


@lru_cache(maxsize=4096)
def _valid_bsn(digits: str) -> bool:
    return bool(bsn.is_valid(digits))


@lru_cache(maxsize=4096)
def _valid_card(digits: str) -> bool:
    return digits.startswith(_CARD_PREFIXES) and bool(luhn.is_valid(digits))
