"""References to legal texts in a question ("prema članku 38. Zakona o PDV-u", "art. 9 Wet
OB", "NN 114/2023", "Notice 2025-67"): they say where the asker read something, they ask
nothing, and their numbers are neither amounts nor dates."""

from __future__ import annotations

import re

_REFERENCE = re.compile(
    r"(?:\b(?:prema|po|according to|volgens|under|iz)\s+)?"
    r"\b(?:clanak|clanka|clanku|cl\.|article|art\.|artikel|section|sec\.|§)\s*\d+[a-z]?\.?"
    r"(?:\s*(?:st\.|stavak|stavka|stavku|lid|paragraph|para\.)\s*\d+\.?)?"
    r"(?:\s*(?:zakona|zakonu|zakon|of the|van de|der)\s+(?:o\s+)?[\w-]+(?:\s+[\w-]+)?)?"
    r"|\bnn\s*\d+/\d{2,4}\b|\b(?:notice|rev\.?\s*proc\.?|pub\.?|publication)\s*\d+(?:-\d+)?\b"
)


def reference_spans(folded: str) -> tuple[tuple[int, int], ...]:
    return tuple(match.span() for match in _REFERENCE.finditer(folded))
