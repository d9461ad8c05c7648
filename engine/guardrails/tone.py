"""Tone check: an answer states what its source states, no more firmly, and asks nothing back.

Absolute words ("uvijek", "never", "nooit") in the answer proper are fine only when a cited quote
uses the same word; otherwise they are reported, not rewritten, since rewording could change the
legal meaning. A trailing question on an ANSWER's directAnswer is dropped. Word lists: tone.yaml.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.flow.cards import cited_cards
from engine.text.normalize import fold
from engine.types import LANGUAGES, Language

_CHECKED_FIELDS = ("headline", "directAnswer", "keyDetails")
# A new sentence starts after . ! ? or … and a space, with a capital letter; "1. siječnja" does not.
_SENTENCE_START = re.compile(r"(?<=[.!?…])\s+(?=[\"'(]?[^\W\d_])")


@dataclass(frozen=True, slots=True)
class ToneConfig:
    """Absolute words per language, folded ("nikad", "in no case"); built by the store loader."""

    absolute_words: Mapping[Language, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class ToneVerdict:
    appropriate: bool
    adjustments: tuple[str, ...]


@lru_cache(maxsize=16)
def _word_pattern(words: tuple[str, ...]) -> re.Pattern[str] | None:
    if not words:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![^\W_])(?:{alternatives})(?![^\W_])")


def _words_for(response: Mapping[str, Any], config: ToneConfig) -> tuple[str, ...]:
    """The response language's list; every list when the language is not known."""
    language = response.get("language")
    if language in LANGUAGES:
        return tuple(config.absolute_words.get(language, ()))
    return tuple(dict.fromkeys(w for words in config.absolute_words.values() for w in words))


def _answer_texts(response: Mapping[str, Any]) -> list[tuple[str, str]]:
    texts: list[tuple[str, str]] = []
    for name in _CHECKED_FIELDS:
        value = response.get(name)
        if isinstance(value, str):
            texts.append((name, value))
        elif isinstance(value, list):
            texts += [(f"{name}[{i}]", v) for i, v in enumerate(value) if isinstance(v, str)]
    return texts


def _unsupported_absolutes(response: Mapping[str, Any], config: ToneConfig) -> list[str]:
    pattern = _word_pattern(_words_for(response, config))
    if pattern is None:
        return []
    quotes = [fold(c["quote"]) for c in cited_cards(response) if isinstance(c.get("quote"), str)]
    quoted = {word for quote in quotes for word in pattern.findall(quote)}
    return [
        f"{name} uses the absolute word '{word}' that no cited quote uses"
        for name, text in _answer_texts(response)
        for word in dict.fromkeys(pattern.findall(fold(text)))
        if word not in quoted
    ]


def drop_trailing_question(text: str) -> str:
    """`text` without its last sentence when that sentence is a question ("" if it is all one)."""
    stripped = text.rstrip()
    if not stripped.endswith("?"):
        return text
    starts = [match.end() for match in _SENTENCE_START.finditer(stripped)]
    return stripped[: starts[-1]].rstrip() if starts else ""


def check_tone(
    response: Mapping[str, Any], config: ToneConfig
) -> tuple[dict[str, Any], ToneVerdict]:
    """The response with any trailing question dropped, and what was changed or found wrong."""
    adjusted = dict(response)
    adjustments = _unsupported_absolutes(response, config)
    appropriate = not adjustments
    direct = response.get("directAnswer")
    if response.get("kind") == "ANSWER" and isinstance(direct, str):
        shortened = drop_trailing_question(direct)
        if shortened != direct and shortened:
            adjusted["directAnswer"] = shortened
            adjustments.append("directAnswer: trailing question removed")
        elif shortened != direct:
            adjustments.append("directAnswer is only a question")
            appropriate = False
    return adjusted, ToneVerdict(appropriate=appropriate, adjustments=tuple(adjustments))
