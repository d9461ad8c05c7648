"""OIB, BSN, SSN and card numbers in any spelling: every window of whole digit groups of an
identifier's length is checked with python-stdnum, then against the other readings of its
digits (an amount, a date, a year range).

Which groupings count: an OIB in any grouping of groups of two or more digits (or digit by
digit); a nine-digit number as 9, 3-2-4 (SSN), 3-3-3 or 4-2-3 (BSN), or digit by digit; a
card as one group, groups of four (the last may be shorter) or 4-6-5 / 4-6-4. With a keyword
naming the identifier just before it, any grouping. A window of single-digit groups must be
the whole number ("5 13 25 2024" is a list, not an SSN). Each window start looks at most at
19 digits ahead, so the scan is linear in the text.
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
    decimal_after,
    decimal_before,
    grouped_thousands,
    is_amount,
    money_words_next_to,
)
from engine.guardrails.pii.spelling import Group, digit_runs

_LONGEST = 19
_NINE_DIGIT_SHAPES = frozenset({(9,), (3, 2, 4), (3, 3, 3), (4, 2, 3)})
_CARD_SHAPES = frozenset({(4, 6, 5), (4, 6, 4)})
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


def find_numbers(text: str, dutch: Callable[[], bool]) -> Iterator[NumberCandidate]:
    """Every window of digit groups that a checksum accepts; `dutch` says (lazily) whether the
    text is Dutch, which names a nine-digit number valid both as a BSN and as an SSN."""
    keywords = Keywords(text)
    for run in digit_runs(text):
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
    readings: list[int] = []  # groups before each index that read as a date or year range
    # The last group and digit count of the latest identifier found: a window starting inside
    # it with no more digits would lose to it anyway, so it is not checked.
    covered, covered_total = -1, 0

    for first in range(count):
        keyword = keywords.before(run[first].start)
        single = sizes[first] == 1
        if single and first > 0 and keyword is None:
            continue  # a digit-by-digit spelling is a whole number, never part of one
        total = 0
        for last in range(first, count):
            size = sizes[last]
            total += size
            if total > _LONGEST or (keyword is None and (size == 1) != single):
                break  # single digits mixed with groups: two numbers side by side
            if (total != 9 and total != 11 and total < 13) or (
                first <= covered and total <= covered_total
            ):
                continue
            if keyword is None and last > first:
                if total >= 13 and sizes[first] != 4:
                    break  # every grouped card spelling starts with four digits
                whole = first == 0 and last == count - 1
                if not _spelled_as(sizes[first : last + 1], total, whole):
                    continue
            digits = "".join(group.digits for group in run[first : last + 1])
            kind = _kind(digits, keyword, dutch)
            if kind is None:
                continue
            start, end = run[first].start, run[last].end
            other = False
            if keyword is None:
                if not readings:
                    readings = _readings(text, run)
                # only the run's ends can touch a currency or a decimal comma
                kuna = kind != "OIB"
                other = (
                    readings[last + 1] > readings[first]
                    or readings[-1] < 0
                    or (first == 0 and (amount_before(text, start, kuna=kuna)))
                    or (first == 0 and decimal_before(text, start))
                    or (last == count - 1 and amount_after(text, end, kuna=kuna))
                    or (last == count - 1 and decimal_after(text, end))
                )
            if not other:
                covered, covered_total = max(covered, last), total
            yield NumberCandidate(kind, start, end, digits, other, keyword is None)


def _readings(text: str, run: Sequence[Group]) -> list[int]:
    """How many of the run's first i groups read as a date or a year range, for every i; the
    last count is -1 when the whole run is an amount written with thousands grouping."""
    taken = dates_and_years(run)
    counts = [0]
    for index in range(len(run)):
        counts.append(counts[-1] + (index in taken))
    start, end = run[0].start, run[-1].end
    if grouped_thousands(run) and (
        is_amount(text, start, end) or money_words_next_to(text, start, end)
    ):
        counts[-1] = -1
    return counts


def _spelled_as(sizes: Sequence[int], total: int, whole: bool) -> bool:
    """Whether unnamed groups of these sizes spell one identifier of `total` digits."""
    if sizes[0] == 1:
        return whole
    if total == 9:
        return tuple(sizes) in _NINE_DIGIT_SHAPES
    if total == 11:
        return True
    return tuple(sizes) in _CARD_SHAPES or (
        all(size == 4 for size in sizes[:-1]) and sizes[-1] <= 4
    )


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
