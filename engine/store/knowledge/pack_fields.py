"""Reading pack YAML: a safe loader that keeps bad dates as text, and a per-record field reader.

The field reader records a PackProblem for every bad field instead of stopping at the first,
so `navod kb verify` reports everything wrong with a pack in one run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any, cast

import yaml

from engine.errors import PackProblem
from engine.types import LANGUAGES, Language


class _PackLoader(yaml.SafeLoader):
    """SafeLoader whose impossible timestamps (2013-13-45) stay strings.

    PyYAML would otherwise fail the whole file; as a string the bad date is reported against
    its record and field.
    """

    def construct_lenient_timestamp(self, node: yaml.Node) -> object:
        try:
            return super().construct_yaml_timestamp(cast(yaml.ScalarNode, node))
        except ValueError:
            return self.construct_scalar(cast(yaml.ScalarNode, node))


_PackLoader.add_constructor("tag:yaml.org,2002:timestamp", _PackLoader.construct_lenient_timestamp)


def read_yaml(path: Path) -> object:
    """The YAML document in `path` (safe types only); raises OSError, UnicodeDecodeError
    or yaml.YAMLError."""
    # _PackLoader is a SafeLoader: only plain YAML types are ever constructed.
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_PackLoader)


class RecordFields:
    """Typed access to one record's fields; each bad field adds a problem and returns a default."""

    def __init__(
        self,
        raw: Mapping[Any, Any],
        file: str,
        record: str,
        problems: list[PackProblem],
        known: Sequence[str],
    ) -> None:
        self._raw = raw
        self._file = file
        self._record = record
        self._problems = problems
        self._found_before = len(problems)
        for name in raw:
            if name not in known:
                self.fail(f"unknown field {name!r}; known fields: {', '.join(known)}")

    @property
    def ok(self) -> bool:
        """Whether no problem was found in this record so far."""
        return len(self._problems) == self._found_before

    def fail(self, problem: str) -> None:
        self._problems.append(PackProblem(self._file, self._record, problem))

    def raw(self, name: str) -> object:
        return self._raw.get(name)

    def text(self, name: str, *, required: bool = True) -> str:
        value = self._raw.get(name)
        if value is None or value == "":
            if required:
                self.fail(f"missing required field {name!r}")
            return ""
        if not isinstance(value, str):
            self.fail(f"{name} must be a string (quote it), got {value!r}")
            return ""
        return value

    def choice(self, name: str, allowed: Sequence[str], *, default: str | None = None) -> str:
        value = self._raw.get(name, default)
        if value is None:
            self.fail(f"missing required field {name!r}")
            return ""
        if value not in allowed:
            self.fail(f"unknown {name} {value!r}; use one of {', '.join(allowed)}")
            return ""
        return cast(str, value)

    def day(self, name: str, *, required: bool = True) -> date | None:
        value = self._raw.get(name)
        if value is None:
            if required:
                self.fail(f"missing required field {name!r}")
            return None
        if isinstance(value, date) and not isinstance(value, datetime):
            return value
        if isinstance(value, str):
            try:
                return date.fromisoformat(value)
            except ValueError:
                pass
        self.fail(f"{name}: invalid date {value!r}; write YYYY-MM-DD")
        return None

    def moment(self, name: str) -> datetime | None:
        """A timezone-aware datetime in UTC; a bare date means 00:00 UTC that day."""
        value = self._raw.get(name)
        if value is None or value == "":
            self.fail(f"missing required field {name!r}")
            return None
        if isinstance(value, str):
            try:
                value = datetime.fromisoformat(value)
            except ValueError:
                self.fail(f"{name}: invalid date-time {value!r}; write 2026-11-22T00:00:00Z")
                return None
        if isinstance(value, datetime):
            if value.tzinfo is None:
                self.fail(f"{name}: {value.isoformat()} has no timezone; add one, e.g. Z for UTC")
                return None
            return value.astimezone(UTC)
        if isinstance(value, date):
            return datetime.combine(value, time(0, 0), tzinfo=UTC)
        self.fail(f"{name}: invalid date-time {value!r}; write 2026-11-22T00:00:00Z")
        return None

    def fraction(self, name: str, default: float) -> float:
        value = self._raw.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            self.fail(f"{name} must be a number from 0 to 1, got {value!r}")
            return default
        return float(value)

    def localised(self, name: str, *, required: bool = True) -> dict[Language, str]:
        """A {language: text} mapping with known languages and non-empty texts."""
        value = self._raw.get(name)
        if value is None and not required:
            return {}
        if not isinstance(value, Mapping) or not value:
            self.fail(f"{name} must be a mapping of language to text, e.g. {{nl: ...}}")
            return {}
        texts: dict[Language, str] = {}
        for lang, text in value.items():
            if self._language(name, lang) and self._nonempty_text(name, lang, text):
                texts[cast(Language, lang)] = text
        return dict(sorted(texts.items()))

    def names(self, name: str) -> tuple[str, ...]:
        """An optional list of distinct non-empty strings (ids), in the order written."""
        value = self._raw.get(name)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(n, str) and n for n in value):
            self.fail(f"{name} must be a list of non-empty strings, got {value!r}")
            return ()
        repeated = sorted({n for n in value if value.count(n) > 1})
        if repeated:
            self.fail(f"{name} lists {', '.join(map(repr, repeated))} more than once")
        return tuple(value)

    def choices(self, name: str, allowed: Sequence[str]) -> tuple[str, ...]:
        """An optional list of distinct values, each one of `allowed`."""
        values = self.names(name)
        unknown = [value for value in values if value not in allowed]
        if unknown:
            self.fail(f"unknown {name} {unknown[0]!r}; use any of {', '.join(allowed)}")
            return ()
        return values

    def aliases(self, name: str) -> dict[Language, tuple[str, ...]]:
        value = self._raw.get(name) or {}
        if not isinstance(value, Mapping):
            self.fail(f"{name} must be a mapping of language to a list of strings")
            return {}
        result: dict[Language, tuple[str, ...]] = {}
        for lang, names in value.items():
            if not self._language(name, lang):
                continue
            if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
                self.fail(f"{name}.{lang} must be a list of non-empty strings")
                continue
            result[cast(Language, lang)] = tuple(names)
        return dict(sorted(result.items()))

    def _language(self, name: str, lang: object) -> bool:
        if lang in LANGUAGES:
            return True
        self.fail(f"unknown language {lang!r} in {name}; use one of {', '.join(LANGUAGES)}")
        return False

    def _nonempty_text(self, name: str, lang: object, text: object) -> bool:
        if isinstance(text, str) and text.strip():
            return True
        self.fail(f"{name}.{lang} must be a non-empty string")
        return False
