"""E-mail addresses and phone numbers: no checksum, so found by shape alone, with patterns
that cannot backtrack more than a bounded distance (no nested quantifiers)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from engine.guardrails.pii.readings import is_amount

# The local part and the domain as flat character runs; their finer structure (labels, the
# top-level domain) is checked in Python, so "a@b.c" repeated cannot make the regex backtrack.
_EMAIL = re.compile(r"(?<![\w.%+-])([A-Za-z0-9._%+-]{1,64})@([A-Za-z0-9.-]{1,253})")
_LOCAL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,62}[A-Za-z0-9_%+-])?")
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
_TOP_LEVEL = re.compile(r"[A-Za-z]{2,24}")
_WORD_CHAR = re.compile(r"[\w-]")
# "01-01-2025" has the digits of a Zagreb number; a day-month-year shape is a date.
_DATE_SHAPE = re.compile(r"\d{1,2}([./-])\d{1,2}\1\d{2,4}")
_PHONE = re.compile(
    r"(?<![\w+.,/-])(?:"
    + "|".join(
        f"(?:{body})"
        for body in (
            # Croatia: +385 / 00385, then the area or mobile code without its 0.
            r"(?:\+|00)385[ /-]?(?:\(0\)[ ]?)?[1-9]\d?(?:[ /-]?\d){6,7}",
            # Croatia, national: 01 Zagreb, 020-053 other areas, 091/092/095/097/098/099 mobiles.
            r"0(?:1|[2-5]\d|9[125789])(?:[ /-]?\d){6,7}",
            # Netherlands: +31 / 0031 and nine digits, 06 mobiles, 0xx landlines (ten digits).
            r"(?:\+|00)31[ -]?(?:\(0\)[ -]?)?[1-9](?:[ -]?\d){8}",
            r"06[ -]?(?:\d[ -]?){7}\d",
            r"0[1-57-9]\d(?:[ -]?\d){7}",
            # United States: +1 and 3-3-4 groups; area and exchange codes start with 2-9.
            r"\+1[ .-]?\(?[2-9]\d{2}\)?[ .-]?[2-9]\d{2}[ .-]?\d{4}",
            r"(?:\([2-9]\d{2}\)[ ]?|[2-9]\d{2}[-. ])[2-9]\d{2}[-. ]\d{4}",
        )
    )
    + r")(?!\w|[.,/-]\d)"
)


def find_emails(text: str) -> Iterator[tuple[int, int]]:
    """The span of every e-mail address: a local part, "@", labels and a top-level domain."""
    if "@" not in text:
        return
    for match in _EMAIL.finditer(text):
        local, domain = match.group(1), match.group(2).rstrip(".-")
        end = match.start(2) + len(domain)
        if end < len(text) and _WORD_CHAR.match(text, end):
            continue  # the domain runs on into a word ("a@b.com_x", "a@b.coč")
        labels = domain.split(".")
        if (
            _LOCAL.fullmatch(local)
            and len(labels) >= 2
            and all(_LABEL.fullmatch(label) for label in labels[:-1])
            and _TOP_LEVEL.fullmatch(labels[-1])
        ):
            yield match.start(), end


def find_phones(text: str) -> Iterator[tuple[int, int]]:
    """The span of every phone number in a Croatian, Dutch or US shape that is not an amount
    or a date."""
    for match in _PHONE.finditer(text):
        if not is_amount(text, match.start(), match.end()) and not _DATE_SHAPE.fullmatch(
            match.group()
        ):
            yield match.start(), match.end()
