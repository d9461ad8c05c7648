"""Personal data in a question: find it past its spelling, confirm it by checksum, replace it
by type.

The text is read once with digits, separators and full-width forms normalised (spelling.py):
OIB, BSN, SSN and card numbers are windows of digit groups (numbers.py), IBANs a country code
and check digits followed by the country's length of letters and digits (ibans.py), each kept
only when python-stdnum accepts it (OIB mod 11,10, IBAN mod 97, BSN elfproef, SSN
area/group/serial rules, cards Luhn) and no other reading of the digits fits (readings.py: an
amount, a date, a year range), so an invoice number or an amount is not mistaken for an
identifier. E-mail and phone numbers have no checksum and get a lower confidence
(contacts.py). A finding holds a type and a span, never the value itself; its span covers the
identifier as written, separators included, so redaction leaves no digit of it behind. Every
step is linear in the text: no pattern with nested or overlapping quantifiers runs on it.
"""

from __future__ import annotations

from engine.guardrails.pii.detect import detect_pii
from engine.guardrails.pii.findings import PATTERN_ONLY, VALIDATED, PiiFinding, PiiType, redact

__all__ = ["PATTERN_ONLY", "VALIDATED", "PiiFinding", "PiiType", "detect_pii", "redact"]
