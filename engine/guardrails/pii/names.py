"""Personal data in a name: a fact type, a subtopic or a topic is stored as given, so none may
hold an identifier in any spelling.

A name is one word, not a sentence: no amount or date stands in it and no word in it explains
a number, so its groups of digits are read together in any grouping, whatever separates them
("x_694_351_515_30", "x69435pa151530", "x_69435_1_5_1530"). Any window of whole groups a
checksum accepts is an identifier, and so is an IBAN starting anywhere in its letters and
digits; the text detector finds the rest (e-mail addresses, phone numbers).
"""

from __future__ import annotations

import re

from engine.guardrails.pii.detect import detect_pii
from engine.guardrails.pii.ibans import iban_length, is_iban
from engine.guardrails.pii.numbers import identifier_kind
from engine.guardrails.pii.spelling import IGNORED, letters_and_digits, skeleton

_DIGITS = re.compile("[0-9]+")
_LONGEST = 19


def hides_identifier(name: str) -> bool:
    """Whether `name` holds personal data in any spelling."""
    if detect_pii(name):
        return True
    shadow = skeleton(name)
    return _hides_number(shadow) or _hides_iban(letters_and_digits(shadow))


def _hides_iban(compact: str) -> bool:
    """Whether an IBAN starts anywhere in the name's letters and digits ("xhr12…")."""
    for at in range(len(compact) - 3):
        country = compact[at : at + 2]
        length = iban_length(country) if country.isalpha() else None
        if length is not None and is_iban(compact[at : at + length], length):
            return True
    return False


def _hides_number(shadow: str) -> bool:
    """Whether any window of whole digit groups is an identifier, in any grouping."""
    groups = _DIGITS.findall(shadow.replace(IGNORED, ""))
    for first in range(len(groups)):
        digits = ""
        for group in groups[first:]:
            digits += group
            if len(digits) > _LONGEST:
                break
            if identifier_kind(digits) is not None:
                return True
    return False
