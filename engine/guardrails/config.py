"""The guardrails' data as one frozen value: patterns, word lists and thresholds.

Built by engine/store/guardrails/config.py from fixtures/guardrails/*.yaml; the pure modules only
receive it, so changing a word list is a data change, never a code change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.types import Language


@dataclass(frozen=True, slots=True)
class GuardrailConfig:
    """Everything the input guardrails need besides the text.

    injection_patterns: regexes (Python `re`) searched in the *matching copy* of a text: folded
        (lowercase, no diacritics), zero-width characters removed, homoglyphs mapped to Latin,
        s p a c e d letters joined and leetspeak digits inside words turned into letters. All
        languages' patterns run on every text: an attack is not tied to the question's language.
    injection_reasons: each pattern's reason code ("ignore-instructions", "role-play", ...).
    injection_markers: language-independent phrases ("system prompt", "jailbreak") matched with
        every space and punctuation mark removed, so no spacing trick hides them.
    claim_patterns: regexes for asserted values ("the VAT rate is 5%", "stopa je 5%"): removed
        together with a detected injection; on their own they are an ordinary statement.
    question_words: words that open a question, to tell a real question from leftover text.
    abuse_words: folded insults and profanity, matched as whole words (or whole phrases).
    pii_min_confidence: findings below this are not redacted by the caller.
    base64_min_length: shortest base64 run decoded and checked for a hidden injection.
    faq_min_score: rapidfuzz ratio (0-100) a question's keys need to an FAQ entry's keys.
    faq_margin: how far the best entry for another concept must trail the best match.
    """

    injection_patterns: Mapping[Language, tuple[str, ...]]
    injection_reasons: Mapping[str, str]
    injection_markers: tuple[str, ...]
    claim_patterns: Mapping[Language, tuple[str, ...]]
    question_words: Mapping[Language, frozenset[str]]
    abuse_words: Mapping[Language, frozenset[str]]
    pii_min_confidence: float
    base64_min_length: int
    faq_min_score: float = 90.0
    faq_margin: float = 5.0
