"""Load the guardrails' data (fixtures/guardrails/*.yaml) into one frozen GuardrailConfig.

The edge of the guardrails: the pure modules in engine/guardrails never read files. Every
problem raises ConfigError naming the file and the key, so a bad edit is easy to find. Loaded
configs are cached per folder.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

import yaml

from engine.errors import ConfigError
from engine.guardrails.config import GuardrailConfig
from engine.store.db import REPO_ROOT
from engine.text.normalize import fold
from engine.types import LANGUAGES, Language

INJECTION_FILE = "injection.yaml"
ABUSE_FILE = "abuse.yaml"
THRESHOLDS_FILE = "thresholds.yaml"

_T = TypeVar("_T")


def default_guardrail_folder() -> Path:
    """The guardrail data shipped with the code: <repo>/fixtures/guardrails."""
    return REPO_ROOT / "fixtures" / "guardrails"


def load_guardrail_config(folder: Path | None = None) -> GuardrailConfig:
    """The GuardrailConfig read from `folder` (default: the shipped data); cached per folder."""
    return _load(Path(folder or default_guardrail_folder()).resolve())


@lru_cache(maxsize=8)
def _load(folder: Path) -> GuardrailConfig:
    injection = _FileReader(folder / INJECTION_FILE)
    abuse = _FileReader(folder / ABUSE_FILE)
    thresholds = _FileReader(folder / THRESHOLDS_FILE)
    patterns, reasons = injection.reasoned_patterns("patterns")
    return GuardrailConfig(
        injection_patterns=patterns,
        injection_reasons=MappingProxyType(reasons),
        injection_markers=tuple(injection.folded_words("markers", injection.data.get("markers"))),
        claim_patterns=injection.per_language("claims", injection.regex_list),
        question_words=injection.per_language("question_words", injection.folded_set),
        abuse_words=abuse.per_language("words", abuse.folded_set),
        pii_min_confidence=thresholds.number("pii_min_confidence", 0.0, 1.0),
        base64_min_length=int(thresholds.number("base64_min_length", 4, 1000, integer=True)),
        faq_min_score=thresholds.number("faq_min_score", 50.0, 100.0),
        faq_margin=thresholds.number("faq_margin", 0.0, 50.0),
    )


def read_mapping(path: Path) -> dict[str, Any]:
    """The YAML mapping in a guardrail data file; ConfigError naming the file otherwise."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"{path}: cannot read guardrail data ({error.strerror})") from error
    except yaml.YAMLError as error:
        raise ConfigError(f"{path}: not valid YAML ({error})") from error
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of keys at the top level")
    return data


class _FileReader:
    """Typed access to one YAML file's keys; each bad value raises ConfigError naming both."""

    def __init__(self, path: Path) -> None:
        self.file = path.name
        self.data: dict[str, Any] = read_mapping(path)

    def fail(self, key: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.file}: {key}: {problem}")

    def number(self, key: str, low: float, high: float, *, integer: bool = False) -> float:
        value = self.data.get(key)
        kinds = (int,) if integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds) or not low <= value <= high:
            kind = "an integer" if integer else "a number"
            raise self.fail(key, f"must be {kind} from {low:g} to {high:g}, got {value!r}")
        return float(value)

    def per_language(self, key: str, read: Callable[[str, object], _T]) -> Mapping[Language, _T]:
        """`key` holds one entry per language (hr, nl, en), each read by `read`."""
        section = self.data.get(key)
        if not isinstance(section, dict) or set(section) != set(LANGUAGES):
            raise self.fail(key, f"must map each of {', '.join(LANGUAGES)} (and nothing else)")
        return MappingProxyType(
            {language: read(f"{key}.{language}", section[language]) for language in LANGUAGES}
        )

    def strings(self, key: str, value: object) -> list[str]:
        if not isinstance(value, list) or not value:
            raise self.fail(key, "must be a non-empty list of strings")
        for item in value:
            if not isinstance(item, str) or not item.strip():
                raise self.fail(key, f"entries must be non-empty strings, got {item!r}")
        return [item.strip() for item in value]

    def folded_words(self, key: str, value: object) -> list[str]:
        """Words compared with folded text: they must already be folded, or never match."""
        words = self.strings(key, value)
        for word in words:
            if fold(word) != word:
                raise self.fail(key, f"{word!r} must be written folded: {fold(word)!r}")
        return words

    def folded_set(self, key: str, value: object) -> frozenset[str]:
        return frozenset(self.folded_words(key, value))

    def regex_list(self, key: str, value: object) -> tuple[str, ...]:
        """Regexes over folded text: compiled here so a typo fails at load, not per request."""
        patterns = self.strings(key, value)
        for pattern in patterns:
            if any(char.isalpha() and not char.isascii() for char in pattern):
                raise self.fail(key, f"{pattern!r}: letters must be folded (no diacritics)")
            try:
                re.compile(pattern)
            except re.error as error:
                raise self.fail(key, f"{pattern!r} is not a valid regex ({error})") from error
        return tuple(patterns)

    def reasoned_patterns(
        self, key: str
    ) -> tuple[Mapping[Language, tuple[str, ...]], dict[str, str]]:
        """Patterns grouped by reason per language, flattened, with each pattern's reason."""
        reasons: dict[str, str] = {}

        def read(where: str, groups: object) -> tuple[str, ...]:
            if not isinstance(groups, dict) or not groups:
                raise self.fail(where, "must map reason codes to lists of patterns")
            flat: list[str] = []
            for reason, patterns in groups.items():
                for pattern in self.regex_list(f"{where}.{reason}", patterns):
                    reasons[pattern] = str(reason)
                    flat.append(pattern)
            return tuple(flat)

        return self.per_language(key, read), reasons
