"""The gold set's shape: what each entry asks and what must come back, checked on load.

An entry expects an ANSWER (one concept and value, several for a family question, or a
concept answered row by row under conditions) or a REFUSAL with one of the allowed reasons.
A file that breaks the shape is refused with the file, the entry id and the problem.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any, Final, Literal

import yaml

from engine.contract import REFUSAL_REASONS
from engine.errors import NavodError
from engine.store.db import REPO_ROOT
from engine.store.knowledge.packs import display_path
from engine.types import LANGUAGES, OBLIGATION_TYPES, Language, Surface, Topic

GOLD_DIR: Final = REPO_ROOT / "fixtures" / "gold"

_ENTRY_KEYS: Final = frozenset(
    {
        "id",
        "query",
        "category",
        "language",
        "as_of",
        "surface",
        "client_context",
        "expect",
        "note",
        "shape",
    }
)
# How a question asks for several values (issue 23): several facts, one fact for several
# years, a change between two dates, a whole table, a value with the condition that picks it,
# the total a stated situation implies. An entry with a shape is right only when every
# expected value is stated.
SHAPES: Final = ("facts", "years", "change", "table", "condition", "total")
_EXPECT_KEYS: Final = frozenset(
    {
        "kind",
        "refusal_reason",
        "refusal_reason_any",
        "topic",
        "concept",
        "value",
        "answers",
        "obligation",
        "conditional",
    }
)
_TOPICS: Final = ("REGULATORY", "PRODUCT", "SUPPORT", "OFFTOPIC")


class GoldError(NavodError):
    """A gold file cannot be used: the message names the file, the entry id and the problem."""


@dataclass(frozen=True, slots=True)
class Expectation:
    kind: Literal["ANSWER", "REFUSAL"]
    reasons: tuple[str, ...] = ()  # the allowed refusal reasons; empty for ANSWER
    topic: Topic | None = None
    concept: str | None = None  # the (first) concept an ANSWER is about
    value: str | None = None  # its value
    # Every (concept, value) an ANSWER must cite: one pair, or each member of a family.
    answers: tuple[tuple[str, str], ...] = ()
    obligation: str | None = None  # the obligation outcome a stated amount must produce
    conditional: bool = False  # answered row by row, each under its condition


@dataclass(frozen=True, slots=True)
class GoldQuestion:
    id: str
    file: str
    query: str
    category: str
    language: Language
    expect: Expectation
    as_of: date | None = None
    surface: Surface = "MARKETING"
    client_context: Mapping[str, Any] = field(default_factory=dict)
    shape: str | None = None  # one of SHAPES: a question that asks for several values


def gold_files(path: Path | None = None) -> list[Path]:
    """The YAML files of the gold set: `path` itself, every *.yaml in it, or fixtures/gold."""
    target = path or GOLD_DIR
    if target.is_file():
        return [target]
    files = sorted(target.glob("*.yaml")) if target.is_dir() else []
    if not files:
        raise GoldError(f"{target}: no gold files found; pass a .yaml file or a folder of them")
    return files


def load_gold(path: Path | None = None) -> tuple[GoldQuestion, ...]:
    """Every entry of every gold file, checked; ids are unique across the whole set."""
    found: list[GoldQuestion] = []
    seen: dict[str, str] = {}
    for file in gold_files(path):
        name = display_path(file)
        try:
            entries = yaml.safe_load(file.read_text(encoding="utf-8")) or []
        except yaml.YAMLError as exc:
            raise GoldError(f"{name}: not valid YAML: {exc}") from exc
        if not isinstance(entries, list):
            raise GoldError(f"{name}: must hold a list of entries (- id: …)")
        for position, raw in enumerate(entries, start=1):
            question = parse_entry(raw, name, position)
            if question.id in seen:
                raise GoldError(f"{name}: {question.id}: id already used in {seen[question.id]}")
            seen[question.id] = name
            found.append(question)
    return tuple(found)


def parse_entry(raw: object, file: str, position: int = 0) -> GoldQuestion:
    """One gold entry as a GoldQuestion, or a GoldError naming the file, id and problem."""
    where = f"{file}: entry {position}"
    if not isinstance(raw, Mapping):
        raise GoldError(f"{where}: must be a mapping with id, query, category, language, expect")
    entry_id = raw.get("id")
    if not isinstance(entry_id, str) or not entry_id.strip():
        raise GoldError(f"{where}: needs an `id` (a non-empty string)")

    def fail(problem: str) -> GoldError:
        return GoldError(f"{file}: {entry_id}: {problem}")

    _no_unknown_keys(raw, _ENTRY_KEYS, "", fail)
    query, category = raw.get("query"), raw.get("category")
    for name, text in (("query", query), ("category", category)):
        if not isinstance(text, str) or not text.strip():
            raise fail(f"`{name}` must be a non-empty string")
    language = raw.get("language")
    if language not in LANGUAGES:
        raise fail(f"`language` must be one of {', '.join(LANGUAGES)}, not {language!r}")
    surface = raw.get("surface", "MARKETING")
    if surface not in ("MARKETING", "APP"):
        raise fail(f"`surface` must be MARKETING or APP, not {surface!r}")
    shape = raw.get("shape")
    if shape is not None and shape not in SHAPES:
        raise fail(f"`shape` must be one of {', '.join(SHAPES)}, not {shape!r}")
    context = raw.get("client_context") or {}
    if not isinstance(context, Mapping):
        raise fail("`client_context` must be a mapping")
    if context and surface != "APP":
        raise fail("`client_context` needs `surface: APP` (MARKETING carries no client data)")
    return GoldQuestion(
        id=entry_id,
        file=file,
        query=str(query),
        category=str(category),
        language=language,
        expect=_expectation(raw.get("expect"), fail),
        as_of=_as_of(raw.get("as_of"), fail),
        surface=surface,
        client_context=dict(context),
        shape=shape,
    )


def _expectation(raw: object, fail: Callable[[str], GoldError]) -> Expectation:
    if not isinstance(raw, Mapping):
        raise fail("`expect` must be a mapping with at least `kind`")
    _no_unknown_keys(raw, _EXPECT_KEYS, "expect.", fail)
    kind, topic = raw.get("kind"), raw.get("topic")
    if topic is not None and topic not in _TOPICS:
        raise fail(f"`expect.topic` must be one of {', '.join(_TOPICS)}, not {topic!r}")
    if kind == "ANSWER":
        return _answer(raw, topic, fail)
    if kind != "REFUSAL":
        raise fail(f"`expect.kind` must be ANSWER or REFUSAL, not {kind!r}")
    single, many = raw.get("refusal_reason"), raw.get("refusal_reason_any")
    if (single is None) == (many is None):
        raise fail("an expected REFUSAL needs exactly one of `refusal_reason`/`refusal_reason_any`")
    reasons = (single,) if many is None else many
    if not isinstance(reasons, list | tuple) or not reasons:
        raise fail("`expect.refusal_reason_any` must be a non-empty list of reasons")
    if unknown := [reason for reason in reasons if reason not in REFUSAL_REASONS]:
        raise fail(f"unknown refusal reason {unknown[0]!r}; use {', '.join(REFUSAL_REASONS)}")
    if any(raw.get(key) is not None for key in ("value", "answers", "obligation")):
        raise fail("an expected REFUSAL states no `expect.value`, `answers` or `obligation`")
    concept = raw.get("concept")
    if concept is not None and not isinstance(concept, str):
        raise fail("`expect.concept` must be a concept slug")
    return Expectation("REFUSAL", tuple(reasons), topic, concept, None)


def _answer(
    raw: Mapping[str, Any], topic: Topic | None, fail: Callable[[str], GoldError]
) -> Expectation:
    if raw.get("refusal_reason") is not None or raw.get("refusal_reason_any") is not None:
        raise fail("an expected ANSWER has no `refusal_reason`/`refusal_reason_any`")
    obligation = raw.get("obligation")
    if obligation is not None and obligation not in OBLIGATION_TYPES:
        raise fail(f"`expect.obligation` must be one of {', '.join(OBLIGATION_TYPES)}")
    conditional = raw.get("conditional", False)
    if not isinstance(conditional, bool):
        raise fail("`expect.conditional` must be true or false")
    if raw.get("answers") is not None:
        if raw.get("concept") is not None or raw.get("value") is not None:
            raise fail("an expected ANSWER has either `answers` or `concept` and `value`")
        pairs = _pairs(raw["answers"], fail)
    else:
        concept = raw.get("concept")
        if not isinstance(concept, str) or not concept:
            raise fail("an expected ANSWER needs `expect.concept` (a concept slug)")
        if conditional and raw.get("value") is None:
            return Expectation("ANSWER", (), topic, concept, None, (), obligation, True)
        pairs = ((concept, _value(raw.get("value"), fail)),)
    concept, value = pairs[0]
    return Expectation("ANSWER", (), topic, concept, value, pairs, obligation, conditional)


def _pairs(raw: object, fail: Callable[[str], GoldError]) -> tuple[tuple[str, str], ...]:
    if not isinstance(raw, list) or not raw:
        raise fail("`expect.answers` must be a non-empty list of {concept, value}")
    pairs: list[tuple[str, str]] = []
    for item in raw:
        concept = item.get("concept") if isinstance(item, Mapping) else None
        if not isinstance(concept, str) or not concept:
            raise fail("each of `expect.answers` needs a `concept` (a concept slug)")
        pairs.append((concept, _value(item.get("value"), fail)))
    return tuple(pairs)


def _value(raw: object, fail: Callable[[str], GoldError]) -> str:
    if isinstance(raw, bool) or not isinstance(raw, str | int | float) or raw == "":
        raise fail("an expected ANSWER needs `expect.value` (the rule value, as a string)")
    return str(raw)


def _as_of(raw: object, fail: Callable[[str], GoldError]) -> date | None:
    if raw is None or (isinstance(raw, date) and not isinstance(raw, datetime)):
        return raw
    try:
        return date.fromisoformat(str(raw))
    except ValueError as exc:
        raise fail(f"`as_of` must be a date (YYYY-MM-DD), not {raw!r}") from exc


def _no_unknown_keys(
    raw: Mapping[Any, Any], allowed: frozenset[str], prefix: str, fail: Callable[[str], GoldError]
) -> None:
    unknown = sorted(str(key) for key in raw if key not in allowed)
    if unknown:
        raise fail(f"unknown key(s) {', '.join(prefix + k for k in unknown)}")
