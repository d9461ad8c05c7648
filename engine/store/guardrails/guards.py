"""Read the guardrail word lists (fixtures/guardrails/*.yaml) into the frozen configs.

The guardrail modules are pure and take these configs as values; this edge module is the only
place that reads the files. Every problem is a ConfigError naming the file and the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, cast

from engine.errors import ConfigError
from engine.flow.turn import Guards
from engine.guardrails.intent import INTENT_KINDS, IntentConfig, IntentKind, phrase_key
from engine.guardrails.tone import ToneConfig
from engine.store.db import REPO_ROOT
from engine.store.guardrails.config import load_guardrail_config, read_mapping
from engine.text.normalize import fold
from engine.types import LANGUAGES, Language

GUARDRAILS_DIR = REPO_ROOT / "fixtures" / "guardrails"


def load_intent_config(path: Path = GUARDRAILS_DIR / "intents.yaml") -> IntentConfig:
    """The small-talk phrases and canned replies of `path` (see the comments in intents.yaml)."""
    data = read_mapping(path)
    intents = _mapping(data, "intents", path)
    unknown = sorted(set(intents) - set(INTENT_KINDS))
    if unknown:
        raise ConfigError(f"{path}: intents: unknown kind {unknown[0]!r}; use {INTENT_KINDS}")
    phrases: dict[str, IntentKind] = {}
    phrase_languages: dict[str, set[Language]] = {}
    replies: dict[IntentKind, Mapping[Language, str]] = {}
    for kind in INTENT_KINDS:
        entry = _mapping(intents, kind, path, f"intents.{kind}")
        by_language = _mapping(entry, "phrases", path, f"intents.{kind}.phrases")
        for language in LANGUAGES:
            where = f"intents.{kind}.phrases.{language}"
            for phrase in _words(by_language, language, path, where):
                key = phrase_key(phrase)
                if not key:
                    raise ConfigError(f"{path}: {where}: {phrase!r} has no letters")
                if phrases.setdefault(key, kind) != kind:
                    raise ConfigError(
                        f"{path}: {where}: {phrase!r} is also a {phrases[key]} phrase; keep one"
                    )
                phrase_languages.setdefault(key, set()).add(language)
        reply = _mapping(entry, "reply", path, f"intents.{kind}.reply")
        replies[kind] = MappingProxyType(
            {lang: _text(reply, lang, path, f"intents.{kind}.reply.{lang}") for lang in LANGUAGES}
        )
    priority = _words(data, "priority", path, "priority")
    if sorted(priority) != sorted(INTENT_KINDS):
        raise ConfigError(f"{path}: priority: list each of {INTENT_KINDS} exactly once")
    return IntentConfig(
        phrases=MappingProxyType(phrases),
        replies=MappingProxyType(replies),
        fillers=frozenset(fold(w) for w in _words(data, "fillers", path, "fillers")),
        addressees=frozenset(fold(w) for w in _words(data, "addressees", path, "addressees")),
        priority=cast(tuple[IntentKind, ...], priority),
        max_tokens=_count(data, "max_tokens", path),
        max_names=_count(data, "max_names", path),
        phrase_languages=MappingProxyType(
            {key: frozenset(langs) for key, langs in phrase_languages.items()}
        ),
    )


def load_tone_config(path: Path = GUARDRAILS_DIR / "tone.yaml") -> ToneConfig:
    """The absolute words per language of `path`, folded for matching."""
    words = _mapping(read_mapping(path), "absolute_words", path)
    return ToneConfig(
        absolute_words=MappingProxyType(
            {
                language: tuple(
                    dict.fromkeys(
                        fold(w) for w in _words(words, language, path, f"absolute_words.{language}")
                    )
                )
                for language in LANGUAGES
            }
        )
    )


def _mapping(
    data: Mapping[str, Any], key: str, path: Path, where: str | None = None
) -> Mapping[str, Any]:
    value = data.get(key)
    if not isinstance(value, Mapping):
        raise ConfigError(f"{path}: {where or key}: expected a mapping")
    return value


def _words(data: Mapping[str, Any], key: str, path: Path, where: str) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ConfigError(f"{path}: {where}: expected a list of non-empty strings")
    return tuple(value)


def _text(data: Mapping[str, Any], key: str, path: Path, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{path}: {where}: expected a non-empty string")
    return value.strip()


def _count(data: Mapping[str, Any], key: str, path: Path) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ConfigError(f"{path}: {key}: expected a whole number of at least 1")
    return value


def load_guards() -> Guards:
    """The guardrail data shipped in fixtures/guardrails, as the service runs with it."""
    return Guards(load_guardrail_config(), load_intent_config(), load_tone_config())
