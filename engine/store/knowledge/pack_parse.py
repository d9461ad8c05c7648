"""Parse one pack folder into domain records, collecting every record-level problem.

Checks that need more than one record (duplicates, references, quotes) live in pack_checks.py;
the per-kind record readers in pack_records.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import yaml

from engine.errors import PackProblem
from engine.store.knowledge.pack_fields import RecordFields, read_yaml
from engine.store.knowledge.pack_records import KNOWN_FIELDS, READERS, NotAFact
from engine.store.knowledge.pack_topics import read_topics
from engine.types import (
    Concept,
    ConflictResolution,
    Evidence,
    FaqEntry,
    PlanningTopic,
    Rule,
    Source,
)

_T = TypeVar("_T")
PACK_FILE = "pack.yaml"
SECTIONS = ("sources", "evidence", "concepts", "rules", "faq", "not_facts", "resolutions")


@dataclass(frozen=True, slots=True)
class Located(Generic[_T]):
    """A parsed record and where it came from, for error messages."""

    file: str
    record: str
    value: _T


@dataclass(frozen=True, slots=True)
class ParsedPack:
    """One pack folder's records.

    `declared` names every record that named itself and `evidence_texts` holds every evidence
    text by key, parsed or not, so one broken field does not hide the problems of the records
    that refer to it.
    """

    sources: tuple[Located[Source], ...]
    evidence: tuple[Located[Evidence], ...]
    concepts: tuple[Located[Concept], ...]
    rules: tuple[Located[Rule], ...]
    faqs: tuple[Located[FaqEntry], ...]
    not_facts: tuple[Located[NotAFact], ...]
    attributions: tuple[Located[str], ...]
    declared: frozenset[tuple[str, str]]
    evidence_texts: Mapping[str, str]
    problems: tuple[PackProblem, ...]
    # rule id -> the rules it is declared to conflict with (`conflicts_with:`), on purpose
    conflicts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    name: str = ""  # the pack's folder name, as loads and ownership name it
    topics: tuple[Located[PlanningTopic], ...] = ()  # pack.yaml `topics:`, in declared order
    # every fact a checklist item names, parsed or not (the conditions' fields must be among them)
    topic_facts: frozenset[str] = frozenset()
    resolutions: tuple[Located[ConflictResolution], ...] = ()  # `resolutions:` (issue 25)


def parse_pack(folder: Path, display: Callable[[Path], str]) -> ParsedPack:
    """Every record of the pack in `folder`; `display` turns paths into names for messages."""
    parser = _PackParser(display, folder.name)
    if not folder.is_dir():
        parser.problems.append(
            PackProblem(display(folder), "", "not a pack folder (expected <pack>/pack.yaml)")
        )
    else:
        parser.read_meta(folder / PACK_FILE)
        for path in sorted(folder.glob("*.yaml")):
            if path.name != PACK_FILE:
                parser.read_records(path)
    return parser.result()


class _PackParser:
    """Accumulates records and problems while reading the files of one pack."""

    def __init__(self, display: Callable[[Path], str], name: str) -> None:
        self.display = display
        self.name = name
        self.topics: list[Located[PlanningTopic]] = []
        self.topic_facts: set[str] = set()
        self.problems: list[PackProblem] = []
        self.records: dict[str, list[Located[Any]]] = {section: [] for section in SECTIONS}
        self.attributions: list[Located[str]] = []
        self.declared: set[tuple[str, str]] = set()
        self.evidence_texts: dict[str, str] = {}
        self.conflicts: dict[str, tuple[str, ...]] = {}

    def result(self) -> ParsedPack:
        return ParsedPack(
            sources=tuple(self.records["sources"]),
            evidence=tuple(self.records["evidence"]),
            concepts=tuple(self.records["concepts"]),
            rules=tuple(self.records["rules"]),
            faqs=tuple(self.records["faq"]),
            not_facts=tuple(self.records["not_facts"]),
            attributions=tuple(self.attributions),
            declared=frozenset(self.declared),
            evidence_texts=dict(self.evidence_texts),
            problems=tuple(self.problems),
            conflicts=dict(self.conflicts),
            name=self.name,
            topics=tuple(self.topics),
            topic_facts=frozenset(self.topic_facts),
            resolutions=tuple(self.records["resolutions"]),
        )

    def _load(self, path: Path) -> object:
        try:
            return read_yaml(path)
        except OSError as error:
            self.problems.append(PackProblem(self.display(path), "", f"cannot read: {error}"))
        except UnicodeDecodeError as error:  # a ValueError, not an OSError: named, not raised
            problem = f"not UTF-8 text (byte {error.start}): save the file as UTF-8"
            self.problems.append(PackProblem(self.display(path), "", problem))
        except yaml.YAMLError as error:
            self.problems.append(PackProblem(self.display(path), "", f"not valid YAML: {error}"))
        return None

    def read_meta(self, path: Path) -> None:
        file = self.display(path)
        if not path.is_file():
            self.problems.append(PackProblem(file, "", "missing pack.yaml (name, licence, ...)"))
            return
        raw = self._load(path)
        if not isinstance(raw, Mapping):
            self.problems.append(PackProblem(file, "", "pack.yaml must be a mapping"))
            return
        known = ("name", "description", "licence", "attribution", "topics")
        fields = RecordFields(raw, file, "pack", self.problems, known)
        for name in known[:3]:
            fields.text(name)
        topics, self.topic_facts = read_topics(raw.get("topics"), file, self.name, self.problems)
        self.topics = [Located(file, record, topic) for record, topic in topics]
        attribution = raw.get("attribution")
        if not isinstance(attribution, list) or not attribution:
            fields.fail("attribution must be a list of {source, text}, one per quoted source")
            return
        for index, line in enumerate(attribution, start=1):
            record = f"attribution #{index}"
            if not isinstance(line, Mapping):
                self.problems.append(PackProblem(file, record, "must be a mapping"))
                continue
            line_fields = RecordFields(line, file, record, self.problems, ("source", "text"))
            source, _text = line_fields.text("source"), line_fields.text("text")
            if line_fields.ok:
                self.attributions.append(Located(file, record, source))

    def read_records(self, path: Path) -> None:
        file = self.display(path)
        raw = self._load(path)
        if raw is None:
            return
        if not isinstance(raw, Mapping):
            self.problems.append(PackProblem(file, "", f"must be a mapping of {SECTIONS}"))
            return
        for section, records in raw.items():
            if section not in SECTIONS:
                problem = f"unknown section {section!r}; use {', '.join(SECTIONS)}"
                self.problems.append(PackProblem(file, "", problem))
            elif not isinstance(records, list):
                self.problems.append(PackProblem(file, "", f"{section} must be a list"))
            else:
                for index, record in enumerate(records, start=1):
                    self._read_record(file, section, index, record)

    def _read_record(self, file: str, section: str, index: int, raw: object) -> None:
        kind, id_field, read = READERS[section]
        name = raw.get(id_field) if isinstance(raw, Mapping) else None
        record = f"{kind} {name!r}" if isinstance(name, str) and name else f"{kind} #{index}"
        if not isinstance(raw, Mapping):
            self.problems.append(PackProblem(file, record, "must be a mapping of fields"))
            return
        if isinstance(name, str):
            self.declared.add((kind, name))
            text = raw.get("text")
            if kind == "evidence" and isinstance(text, str):
                self.evidence_texts.setdefault(name, text)
        fields = RecordFields(raw, file, record, self.problems, KNOWN_FIELDS[section])
        if kind == "rule" and isinstance(name, str) and raw.get("conflicts_with") is not None:
            self.conflicts[name] = _rule_ids(fields)
        value = read(fields)
        if fields.ok:
            self.records[section].append(Located(file, record, value))


def _rule_ids(fields: RecordFields) -> tuple[str, ...]:
    """`conflicts_with`: one rule id or a list of them."""
    raw = fields.raw("conflicts_with")
    ids = [raw] if isinstance(raw, str) else raw
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) and i for i in ids):
        fields.fail("conflicts_with must be a rule id or a list of rule ids")
        return ()
    return tuple(ids)
