"""Compile the knowledge base into an immutable, indexed snapshot.

A snapshot is built once per knowledge-base version and shared by every request: the pipeline
never touches the store. Alias keywords, parsed conditions and rule orderings are computed here
so answering a question costs only lookups.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.conditions import Cond, parse_condition
from engine.text.tokens import keywords
from engine.types import (
    LANGUAGES,
    Concept,
    Evidence,
    Jurisdiction,
    KnowledgeBase,
    Language,
    Rule,
    Source,
)


@dataclass(frozen=True, slots=True)
class Alias:
    """One way of naming a concept: a label or an alias, reduced to matching keys."""

    concept: str
    language: Language
    text: str
    keys: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Snapshot:
    version: int
    sources: Mapping[str, Source]
    evidence: Mapping[str, Evidence]
    concepts: Mapping[str, Concept]
    rules: Mapping[str, Rule]
    rules_by_concept: Mapping[str, tuple[Rule, ...]]  # newest effective_from first
    aliases: tuple[Alias, ...]
    aliases_by_key: Mapping[str, tuple[int, ...]]  # key -> indexes into `aliases`
    vocabulary: tuple[str, ...]  # every alias key, sorted: the fuzzy-correction targets
    anagrams: Mapping[str, tuple[str, ...]]  # sorted letters -> keys: catches "pvd" for "pdv"
    keys_by_language: Mapping[Language, frozenset[str]]  # alias keys per alias language
    conditions: Mapping[str, Cond | None]  # rule id -> parsed condition; None = unparseable
    jurisdictions: frozenset[Jurisdiction]

    def source_of(self, evidence_id: str) -> Source | None:
        ev = self.evidence.get(evidence_id)
        return self.sources.get(ev.source_id) if ev else None


def compile_snapshot(kb: KnowledgeBase) -> Snapshot:
    """Index a knowledge base for answering. Pure: the same KB gives an equal snapshot."""
    concepts = {c.slug: c for c in sorted(kb.concepts, key=lambda c: c.slug)}
    by_concept: dict[str, list[Rule]] = defaultdict(list)
    for rule in kb.rules:
        by_concept[rule.concept].append(rule)
    aliases = tuple(_aliases(concepts.values()))
    index: dict[str, list[int]] = defaultdict(list)
    for position, alias in enumerate(aliases):
        for key in set(alias.keys):
            index[key].append(position)
    return Snapshot(
        version=kb.version,
        sources={s.id: s for s in kb.sources},
        evidence={e.id: e for e in kb.evidence},
        concepts=concepts,
        rules={r.id: r for r in kb.rules},
        rules_by_concept={
            slug: tuple(sorted(rules, key=lambda r: (r.effective_from, r.id), reverse=True))
            for slug, rules in by_concept.items()
        },
        aliases=aliases,
        aliases_by_key={key: tuple(positions) for key, positions in index.items()},
        vocabulary=tuple(sorted(index)),
        anagrams=_anagrams(index),
        keys_by_language={
            language: frozenset(k for a in aliases if a.language == language for k in a.keys)
            for language in LANGUAGES
        },
        conditions={r.id: _parse_or_none(r.applies_when) for r in kb.rules},
        jurisdictions=frozenset(c.jurisdiction for c in concepts.values()),
    )


def _aliases(concepts: Iterable[Concept]) -> list[Alias]:
    found: list[Alias] = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for concept in concepts:
        for language in LANGUAGES:
            names = [concept.labels.get(language, ""), *concept.aliases.get(language, ())]
            for name in names:
                keys = keywords(name, language) if name else ()
                if keys and (concept.slug, keys) not in seen:
                    seen.add((concept.slug, keys))
                    found.append(Alias(concept.slug, language, name, keys))
    return found


def _anagrams(keys: Iterable[str]) -> dict[str, tuple[str, ...]]:
    groups: dict[str, list[str]] = defaultdict(list)
    for key in sorted(keys):
        groups["".join(sorted(key))].append(key)
    return {letters: tuple(group) for letters, group in groups.items()}


def _parse_or_none(raw: object) -> Cond | None:
    try:
        return parse_condition(raw)
    except ValueError:
        return None  # fail closed: the rule becomes ineligible and the trace says why
