"""Compile the knowledge base into an immutable, indexed snapshot.

A snapshot is built once per knowledge-base version and shared by every request: the pipeline
never touches the store. Alias keywords, parsed conditions and rule orderings are computed here
so answering a question costs only lookups.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from engine.conditions import Cond, parse_condition
from engine.text.tokens import keyed_words, keywords
from engine.types import (
    LANGUAGES,
    AnswerKind,
    Concept,
    ConflictResolution,
    Evidence,
    FaqEntry,
    Jurisdiction,
    KnowledgeBase,
    Language,
    PlanningTopic,
    Rule,
    Source,
)
from engine.understanding.account import Subject
from engine.understanding.compatibility import answer_kinds
from engine.understanding.index import (
    concept_boxes,
    concept_heads,
    concept_keys,
    concept_numbers,
    concept_qualifiers,
    concept_values,
    concepts_by_key,
    decided_by,
    domain_values,
    families,
    measures,
    value_domain,
)

SHORTEST_PER_KEY = 64


@dataclass(frozen=True, slots=True)
class Alias:
    """One way of naming a concept: a label or an alias, reduced to matching keys."""

    concept: str
    language: Language
    text: str
    keys: tuple[str, ...]
    spelled: tuple[tuple[str, str], ...] = ()  # (alias word, its key) where the two differ


@dataclass(frozen=True, slots=True)
class Snapshot:
    version: int
    sources: Mapping[str, Source]
    evidence: Mapping[str, Evidence]
    concepts: Mapping[str, Concept]
    rules: Mapping[str, Rule]
    rules_by_concept: Mapping[str, tuple[Rule, ...]]  # newest effective_from first
    aliases: tuple[Alias, ...]
    aliases_by_key: Mapping[str, frozenset[int]]  # key -> indexes into `aliases`
    alias_sizes: tuple[int, ...]  # distinct keys per alias, by index
    alias_key_sets: tuple[frozenset[str], ...]  # distinct keys per alias, by index
    single_key_aliases: Mapping[str, tuple[int, ...]]  # key -> aliases made of that key alone
    # key -> the SHORTEST_PER_KEY aliases with the fewest keys: a vague one-word question scores
    # highest on the shortest aliases holding its word, so these are the ones worth offering
    shortest_aliases_by_key: Mapping[str, tuple[int, ...]]
    # (language, first letter, length) -> alias keys of that language: typo candidates
    vocabulary: Mapping[tuple[Language, str, int], tuple[str, ...]]
    surface_keys: Mapping[tuple[Language, str], str]  # alias word -> its key, when different
    anagrams: Mapping[str, tuple[str, ...]]  # sorted letters -> keys: catches "pvd" for "pdv"
    stems: Mapping[str, tuple[str, ...]]  # first five letters -> keys: other forms of a word
    keys_by_language: Mapping[Language, frozenset[str]]  # alias keys per alias language
    conditions: Mapping[str, Cond | None]  # rule id -> parsed condition; None = unparseable
    jurisdictions: frozenset[Jurisdiction]
    concepts_by_domain: Mapping[str, tuple[str, ...]]  # domain -> concept slugs, sorted
    # language -> (the FAQ question's keys as triage compares them, see `faq_key`; the entry)
    faqs: Mapping[Language, tuple[tuple[str, FaqEntry], ...]]
    # The packs' planning topics (issue 11), in pack order then declared order.
    topics: tuple[PlanningTopic, ...] = ()
    # Question understanding: every key a concept's names use (in any language), what its value
    # answers, the members of each family, and the threshold concepts that decide a concept.
    concept_keys: Mapping[str, frozenset[str]] = field(default_factory=dict)
    concepts_by_key: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # The qualifiers (kind, value) a concept's names carry in any language: "standard VAT rate"
    # makes "standaard" and "opća" the general variant of this concept.
    concept_qualifiers: Mapping[str, frozenset[tuple[str, str]]] = field(default_factory=dict)
    # Every value the rules of a domain state, as numbers: "toptarief van 49,5%" names a value.
    domain_values: Mapping[str, frozenset[Decimal]] = field(default_factory=dict)
    answer_kinds: Mapping[str, frozenset[AnswerKind]] = field(default_factory=dict)
    families: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    decided_by: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    measures: Mapping[str, frozenset[str]] = field(default_factory=dict)  # fact -> thresholds
    concept_numbers: Mapping[str, frozenset[str]] = field(default_factory=dict)
    concept_boxes: Mapping[str, frozenset[str]] = field(default_factory=dict)  # "box 2"
    concept_heads: Mapping[str, frozenset[str]] = field(default_factory=dict)
    head_keys: frozenset[str] = frozenset()  # every concept's head words
    concept_values: Mapping[str, frozenset[Decimal]] = field(default_factory=dict)
    # What each concept's names, values and kinds explain in a question (see account.py):
    # the matcher accounts for several readings per question, each from these parts.
    subjects: Mapping[str, Subject] = field(default_factory=dict)
    # The maintainers' decisions of declared conflicts, by the pair of rule ids they settle.
    resolutions: Mapping[frozenset[str], ConflictResolution] = field(default_factory=dict)

    # Typo look-ups already made against this snapshot's vocabulary. A memo of a pure function
    # (same snapshot, same word, same answer), so it changes speed, never results.
    typo_memo: dict[tuple[str, Language], str | None] = field(
        default_factory=dict, compare=False, repr=False
    )

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
    keys_of = concept_keys(aliases)
    qualifiers = concept_qualifiers(concepts.values())
    values = domain_values(concepts, kb.rules)
    kinds = {
        slug: answer_kinds(concept, by_concept.get(slug, ())) for slug, concept in concepts.items()
    }
    numbers = concept_numbers(concepts.values())
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
        aliases_by_key={key: frozenset(positions) for key, positions in index.items()},
        alias_sizes=tuple(len(set(alias.keys)) for alias in aliases),
        alias_key_sets=tuple(frozenset(alias.keys) for alias in aliases),
        single_key_aliases=_single_key_aliases(aliases),
        shortest_aliases_by_key={
            key: tuple(sorted(positions, key=lambda p: (len(set(aliases[p].keys)), p)))[
                :SHORTEST_PER_KEY
            ]
            for key, positions in index.items()
        },
        vocabulary=_buckets(aliases),
        surface_keys=_surface_keys(aliases),
        anagrams=_anagrams(index),
        stems=_stems(index),
        keys_by_language={
            language: frozenset(k for a in aliases if a.language == language for k in a.keys)
            for language in LANGUAGES
        },
        conditions={r.id: _parse_or_none(r.applies_when) for r in kb.rules},
        jurisdictions=frozenset(c.jurisdiction for c in concepts.values()),
        concepts_by_domain=_by_domain(concepts.values()),
        faqs={
            language: tuple(
                (faq_key(keywords(f.question, language)), f)
                for f in sorted(kb.faqs, key=lambda f: f.id)
                if f.language == language and f.concept in concepts
            )
            for language in LANGUAGES
        },
        topics=kb.topics,
        concept_keys=keys_of,
        concepts_by_key=concepts_by_key(aliases),
        concept_qualifiers=qualifiers,
        domain_values=values,
        answer_kinds=kinds,
        families=families(concepts.values()),
        decided_by=decided_by(concepts.values()),
        measures=measures(concepts.values()),
        concept_numbers=numbers,
        concept_boxes=concept_boxes(concepts.values()),
        concept_heads=(heads := concept_heads(aliases)),
        head_keys=frozenset().union(*heads.values()) if heads else frozenset(),
        concept_values=concept_values(concepts, kb.rules),
        subjects={
            slug: Subject(
                keys=keys_of.get(slug, frozenset()),
                qualifiers=qualifiers.get(slug, frozenset()),
                varies_by=frozenset(concept.varies_by),
                kinds=kinds.get(slug, frozenset()),
                values=values.get(value_domain(concept), frozenset()),
                amounts_used=concept.threshold is not None,
                numbers=numbers.get(slug, frozenset()),
            )
            for slug, concept in concepts.items()
        },
        resolutions={frozenset(r.conflict): r for r in kb.resolutions},
    )


def faq_key(keys: Iterable[str]) -> str:
    """A question's content-word keys, sorted: word order and filler do not tell FAQs apart."""
    return " ".join(sorted(set(keys)))


def _aliases(concepts: Iterable[Concept]) -> list[Alias]:
    found: list[Alias] = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for concept in concepts:
        for language in LANGUAGES:
            names = [concept.labels.get(language, ""), *concept.aliases.get(language, ())]
            for name in names:
                pairs = keyed_words(name, language) if name else ()
                keys = tuple(dict.fromkeys(key for _, key in pairs))
                if keys and (concept.slug, keys) not in seen:
                    seen.add((concept.slug, keys))
                    spelled = tuple(
                        (word, key) for word, key in pairs if word != key and len(word) >= 4
                    )
                    found.append(Alias(concept.slug, language, name, keys, spelled))
    return found


def _single_key_aliases(aliases: tuple[Alias, ...]) -> dict[str, tuple[int, ...]]:
    groups: dict[str, list[int]] = defaultdict(list)
    for position, alias in enumerate(aliases):
        if len(set(alias.keys)) == 1:
            groups[alias.keys[0]].append(position)
    return {key: tuple(positions) for key, positions in groups.items()}


def _buckets(aliases: Iterable[Alias]) -> dict[tuple[Language, str, int], tuple[str, ...]]:
    """Typo targets by language, first letter and length: alias keys and the alias words they
    come from ("verlaagd" for the key "verlagen", so "verlagd" still finds it). A typo rarely
    changes the first letter, a word more than two letters longer or shorter is never close
    enough, and a Dutch word should not be "corrected" into an English alias."""
    groups: dict[tuple[Language, str, int], set[str]] = defaultdict(set)
    for alias in aliases:
        for word in (*alias.keys, *(spelled for spelled, _ in alias.spelled)):
            groups[(alias.language, word[0], len(word))].add(word)
    return {bucket: tuple(sorted(words)) for bucket, words in sorted(groups.items())}


def _surface_keys(aliases: Iterable[Alias]) -> dict[tuple[Language, str], str]:
    """(language, alias word) -> the key it stands for, where the word is not a key itself."""
    found: dict[tuple[Language, str], str] = {}
    for alias in aliases:
        for word, key in alias.spelled:
            found.setdefault((alias.language, word), key)
    return found


def _by_domain(concepts: Iterable[Concept]) -> dict[str, tuple[str, ...]]:
    groups: dict[str, list[str]] = defaultdict(list)
    for concept in concepts:
        groups[concept.domain].append(concept.slug)
    return {domain: tuple(sorted(slugs)) for domain, slugs in groups.items()}


def _anagrams(keys: Iterable[str]) -> dict[str, tuple[str, ...]]:
    groups: dict[str, list[str]] = defaultdict(list)
    for key in sorted(keys):
        groups["".join(sorted(key))].append(key)
    return {letters: tuple(group) for letters, group in groups.items()}


def _stems(keys: Iterable[str]) -> dict[str, tuple[str, ...]]:
    groups: dict[str, list[str]] = defaultdict(list)
    for key in sorted(keys):
        if len(key) >= 5 and key.isalpha():
            groups[key[:5]].append(key)
    return {head: tuple(group) for head, group in groups.items()}


def _parse_or_none(raw: object) -> Cond | None:
    try:
        return parse_condition(raw)
    except ValueError:
        return None  # fail closed: the rule becomes ineligible and the trace says why
