"""IBANs in any spelling: a country code, two check digits and the country's BBAN length of
letters and digits, read from the skeleton (spelling.py) so that separators and ignored
characters between any two of them, letter by letter, do not hide one; confirmed by
python-stdnum."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from functools import lru_cache

from stdnum import iban, numdb

from engine.guardrails.pii.spelling import IGNORED, LETTER, SEPARATORS, letters_and_digits

_REGISTRY = numdb.get("iban")
_BBAN_PART = re.compile(r"(\d+)!?[nace]")
_LETTER_VALUES = str.maketrans({chr(65 + i): str(10 + i) for i in range(26)})
_GAP = f"[{re.escape(SEPARATORS)}{IGNORED}]*"
# A word starting with two letters and then two digits, separators and ignored characters
# between any of them: where an IBAN can start. Sequential single-class quantifiers only,
# each class apart from the next, so the scan cannot backtrack.
_START = re.compile(rf"(?<![0-9A-Z{LETTER}])([A-Z]){_GAP}([A-Z]){_GAP}[0-9]{_GAP}[0-9]")
_IGNORED_RUN = re.compile(f"{IGNORED}*")
_GAPS = frozenset(SEPARATORS + IGNORED)


def find_ibans(shadow: str) -> Iterator[tuple[int, int]]:
    """The span of every valid IBAN that starts a word of the text `shadow` is the skeleton of."""
    compact: str | None = None
    kept: list[int] = []  # where each character of `compact` stands in the skeleton
    found_end = 0
    for start in _START.finditer(shadow):
        length = iban_length(start.group(1) + start.group(2))
        if length is None or start.start() < found_end:
            continue  # not a country, or inside the IBAN before ("NL79AA\u0300AD18…": not AD)
        if compact is None:
            compact = letters_and_digits(shadow)
            kept = [i for i, char in enumerate(shadow) if char not in _GAPS]
        at = bisect_left(kept, start.start())
        if is_iban(compact[at : at + length], length):
            end = kept[at + length - 1] + 1
            after = _IGNORED_RUN.match(shadow, end)  # what modifies the last character
            found_end = after.end() if after else end
            yield start.start(), found_end


@lru_cache(maxsize=512)
def iban_length(country: str) -> int | None:
    """How many characters an IBAN of `country` has, from python-stdnum's registry."""
    info = _REGISTRY.info(country + "00")
    bban = info[0][1].get("bban") if info and info[0][0] == country else None
    return 4 + sum(int(n) for n in _BBAN_PART.findall(bban)) if bban else None


def is_iban(number: str, length: int) -> bool:
    """Whether `number` (letters in upper case, digits) is a valid IBAN of `length`
    characters. The checksum alone first, in C: python-stdnum then checks the country's format
    (a word like "HR12" repeated would otherwise cost a full validation each)."""
    return (
        len(number) == length
        and number.isalnum()
        and _mod_97_is_one(number)
        and _valid_iban(number)
    )


@lru_cache(maxsize=4096)
def _valid_iban(number: str) -> bool:
    """python-stdnum's full check (country format, national check digits), remembered: its
    registry lookup costs more than the rest of the scan."""
    return bool(iban.is_valid(number))


def _mod_97_is_one(number: str) -> bool:
    return int((number[4:] + number[:4]).translate(_LETTER_VALUES)) % 97 == 1
