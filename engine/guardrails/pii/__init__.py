"""Personal data in a question: find it past its spelling, confirm it by checksum, replace it
by type.

The text is read once as its skeleton (spelling.py), one character for each character of the
text: every character with a digit value (Arabic-Indic, full-width, circled, superscript,
keycap) is its ASCII digit, letters fold to ASCII upper case (NFKC), whitespace and
punctuation of every kind are separators, and what draws nothing or only modifies the
character before it (combining marks, variation selectors, tags, zero-width and format
characters, Hangul fillers) is ignored. OIB, BSN, SSN and card numbers are windows of digit
groups of the skeleton, one short word allowed between two groups (numbers.py); IBANs are a
country code and check digits followed by the country's length of letters and digits, read
letter by letter if need be (ibans.py). Each is kept only when python-stdnum accepts it (OIB
mod 11,10, IBAN mod 97, BSN elfproef, SSN area/group/serial rules, cards Luhn) and no other
reading of the digits fits (readings.py: an amount, a date, a year range, two round numbers
with a word between them), so an invoice number or an amount is not mistaken for an
identifier. E-mail and phone numbers have no checksum and get a lower confidence
(contacts.py). A finding holds a type and a span, never the value itself; as the skeleton
keeps the text's positions, its span covers the identifier as written, separators, marks and
selectors included, so redaction leaves nothing of it behind. Names (a fact type, a subtopic)
are read stricter: their digits in any grouping (names.py). Every step is linear in the
text: no pattern with nested or overlapping quantifiers runs on it.
"""

from __future__ import annotations

from engine.guardrails.pii.detect import detect_pii
from engine.guardrails.pii.findings import PATTERN_ONLY, VALIDATED, PiiFinding, PiiType, redact
from engine.guardrails.pii.names import hides_identifier

__all__ = [
    "PATTERN_ONLY",
    "VALIDATED",
    "PiiFinding",
    "PiiType",
    "detect_pii",
    "hides_identifier",
    "redact",
]
