"""Abusive content: insults and profanity from a small documented word list per language.

Words are matched whole in the matching copy (folded, disguises undone), so "pas" never
matches inside "pasta" and "f u c k" still matches "fuck". Entries with a space are phrases.
"""

from __future__ import annotations

import re

from engine.guardrails.config import GuardrailConfig
from engine.guardrails.injection import matching_text
from engine.types import LANGUAGES

_WORD = re.compile(r"[a-z0-9]+")


def detect_abuse(text: str, config: GuardrailConfig) -> bool:
    """Whether `text` holds a listed insult or profanity of any language."""
    prepared = matching_text(text)
    for copy in prepared.copies:
        words = _WORD.findall(copy)
        padded = f" {' '.join(words)} "
        for language in LANGUAGES:
            listed = config.abuse_words[language]
            if not listed.isdisjoint(words):
                return True
            if any(" " in entry and f" {entry} " in padded for entry in listed):
                return True
    # "you are a m o r o n" joins to "amoron": look for listed words inside spaced runs.
    return any(
        len(entry) >= 4 and entry in run
        for run in prepared.spaced_runs
        for language in LANGUAGES
        for entry in config.abuse_words[language]
    )
