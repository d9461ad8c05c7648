"""IBANs in any spelling: a country code, two check digits and the country's BBAN length of
letters and digits, separators and invisible characters between any of them ignored,
confirmed by python-stdnum."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from stdnum import iban, numdb

from engine.guardrails.pii.spelling import FOLD, INVISIBLE_CLASS, SEPARATOR_CLASS

_REGISTRY = numdb.get("iban")
_BBAN_PART = re.compile(r"(\d+)!?[nace]")
_LONGEST = 34
_LETTER_VALUES = str.maketrans({chr(65 + i): str(10 + i) for i in range(26)})
# A word starting with two letters and then (past separators) a digit: where an IBAN can
# start. Sequential single-class quantifiers only.
_START = re.compile(
    rf"(?<![^\W_])[^\W\d_][{INVISIBLE_CLASS}]*[^\W\d_][{SEPARATOR_CLASS}{INVISIBLE_CLASS}]{{0,4}}\d"
)
# How far past its start an IBAN's characters may reach, separators included.
_REACH = _LONGEST * 5
_TOO_MANY_SEPARATORS = re.compile(rf"[{SEPARATOR_CLASS}]{{4}}")


def find_ibans(text: str) -> Iterator[tuple[int, int]]:
    """The span of every valid IBAN that starts a word of `text`."""
    for start in _START.finditer(text):
        end = _iban_at(text, start.start())
        if end is not None:
            yield start.start(), end


@lru_cache(maxsize=512)
def iban_length(country: str) -> int | None:
    """How many characters an IBAN of `country` has, from python-stdnum's registry."""
    info = _REGISTRY.info(country + "00")
    bban = info[0][1].get("bban") if info and info[0][0] == country else None
    return 4 + sum(int(n) for n in _BBAN_PART.findall(bban)) if bban else None


def _iban_at(text: str, start: int) -> int | None:
    """The end of the IBAN starting at `start`, if it is one."""
    window = text[start : start + _REACH]
    folded = window.translate(FOLD)
    length = iban_length(folded[:2])
    if length is None:
        return None
    number = folded[:length]
    if len(number) < length or not (number.isascii() and number.isalnum()):
        return None
    if not _mod_97_is_one(number) or not _valid_iban(number):
        return None
    end = _end_of(window, length)
    if _TOO_MANY_SEPARATORS.search(window, 0, end):
        return None  # the characters belong to more than one word or number
    return start + end


@lru_cache(maxsize=4096)
def _valid_iban(number: str) -> bool:
    """python-stdnum's full check (country format, national check digits), remembered: its
    registry lookup costs more than the rest of the scan."""
    return bool(iban.is_valid(number))


def _mod_97_is_one(number: str) -> bool:
    """The IBAN checksum alone, in C: python-stdnum then checks the country's format (a word
    like "HR12" repeated would otherwise cost a full validation each)."""
    return int((number[4:] + number[:4]).translate(_LETTER_VALUES)) % 97 == 1


def _end_of(window: str, length: int) -> int:
    """Where the `length`-th letter or digit of `window` ends."""
    seen = 0
    for index, char in enumerate(window):
        if char.translate(FOLD):
            seen += 1
            if seen == length:
                return index + 1
    return len(window)
