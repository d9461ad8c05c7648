"""Checks across all loaded packs: unique ids, known references, verbatim quotes, stated values.
Conflict resolutions are checked by pack_resolutions.py.

Also resolves each pointer's evidence key to the evidence's content-derived id, checks that
each FAQ entry asks something new and points at its own concept's rules, and that every field a
pack's conditions read is on one of its planning topics' checklists.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from engine.conditions import fields_of, parse_condition
from engine.errors import PackProblem
from engine.store.knowledge.pack_parse import Located, ParsedPack
from engine.store.knowledge.pack_records import NotAFact
from engine.store.knowledge.pack_resolutions import resolution_problems, resolve_evidence
from engine.text.formatting import KNOWN_UNITS
from engine.text.normalize import fold, normalise_quote
from engine.text.quantities import numbers_stated, value_stated
from engine.text.sentences import whole_sentences, widen_to_sentences
from engine.types import (
    LANGUAGES,
    OBLIGATION_TYPES,
    Concept,
    ConflictResolution,
    Evidence,
    FaqEntry,
    PlanningTopic,
    Pointer,
    Rule,
    Source,
)

_T = TypeVar("_T")
_EXCERPT = 60
_SAME_TEXT_HINT = (
    ": the text is identical and evidence ids derive from the text; keep one record and point"
    " every rule at it (its note can say which versions it speaks for)"
)


@dataclass(frozen=True, slots=True)
class CheckedRecords:
    """The records of all packs (pointers resolved to evidence ids) and every problem found."""

    sources: tuple[Source, ...]
    evidence: tuple[Evidence, ...]
    concepts: tuple[Concept, ...]
    rules: tuple[Rule, ...]
    faqs: tuple[FaqEntry, ...]
    problems: tuple[PackProblem, ...]
    not_facts: tuple[NotAFact, ...] = ()
    topics: tuple[PlanningTopic, ...] = ()  # in load order, then declared order
    resolutions: tuple[ConflictResolution, ...] = ()  # evidence keys resolved to ids


def check_packs(packs: Sequence[ParsedPack]) -> CheckedRecords:
    """Run the cross-record checks over `packs` (already parsed, in load order)."""
    problems = [problem for pack in packs for problem in pack.problems]
    sources = _unique(problems, [r for p in packs for r in p.sources], "source id", _source_id)
    evidence = _unique(problems, [r for p in packs for r in p.evidence], "evidence key", _key)
    evidence = _unique(problems, evidence, "evidence id", _evidence_id, _SAME_TEXT_HINT)
    concepts = _unique(problems, [r for p in packs for r in p.concepts], "concept slug", _slug)
    rules = _unique(problems, [r for p in packs for r in p.rules], "rule id", _rule_id)
    declared = frozenset().union(*(pack.declared for pack in packs))

    def require(found: Located[Any], kind: str, name: str) -> None:
        if (kind, name) not in declared:
            problems.append(PackProblem(found.file, found.record, f"unknown {kind} {name!r}"))

    for located in (a for pack in packs for a in pack.attributions):
        require(located, "source", located.value)
    for item in evidence:
        require(item, "source", item.value.source_id)
    for concept in concepts:
        for slug in _referenced_concepts(concept.value):
            require(concept, "concept", slug)
    by_key = {item.value.key: item.value for item in evidence}
    texts = {key: text for pack in reversed(packs) for key, text in pack.evidence_texts.items()}
    resolved: list[Rule] = []
    for rule in rules:
        require(rule, "concept", rule.value.concept)
        for pointer in rule.value.pointers:
            require(rule, "evidence", pointer.evidence_id)
        problems.extend(_quote_problems(rule, texts))
        resolved.append(_resolve(rule.value, by_key))
    conflicts = {rule: named for pack in packs for rule, named in pack.conflicts.items()}
    for rule in rules:
        for other in conflicts.get(rule.value.id, ()):
            require(rule, "rule", other)
    problems.extend(_overlap_problems(rules, conflicts))
    faqs = _unique(problems, [r for p in packs for r in p.faqs], "faq id", _faq_id)
    faqs = _unique(problems, faqs, "faq question", _faq_question)
    rule_concepts = {rule.value.id: rule.value.concept for rule in rules}
    for faq in faqs:
        require(faq, "concept", faq.value.concept)
        for rule_id in faq.value.rules:
            require(faq, "rule", rule_id)
            problems.extend(_faq_rule_problems(faq, rule_id, rule_concepts))
    not_facts = [located for pack in packs for located in pack.not_facts]
    for excluded in not_facts:
        require(excluded, "evidence", excluded.value.evidence)
        text = texts.get(excluded.value.evidence)
        words = normalise_quote(excluded.value.sentence)
        if text is not None and words not in normalise_quote(text):
            problems.append(
                PackProblem(excluded.file, excluded.record, "sentence not found in its evidence")
            )
    topics = _unique(problems, [t for p in packs for t in p.topics], "topic id", _topic_id)
    for pack in packs:
        problems.extend(_uncovered_fields(pack))
    resolutions = _unique(
        problems, [r for p in packs for r in p.resolutions], "resolution id", _resolution_id
    )
    problems += resolution_problems(
        [(r.file, r.record, r.value) for r in resolutions],
        {rule.value.id: rule.value for rule in rules},
        conflicts,
        texts,
        lambda file, record, key: require(Located(file, record, key), "evidence", key),
    )
    return CheckedRecords(
        resolutions=tuple(resolve_evidence(r.value, by_key) for r in resolutions),
        topics=tuple(item.value for item in topics),
        not_facts=tuple(located.value for located in not_facts),
        sources=tuple(item.value for item in sources),
        evidence=tuple(item.value for item in evidence),
        concepts=tuple(item.value for item in concepts),
        rules=tuple(resolved),
        faqs=tuple(item.value for item in faqs),
        problems=tuple(problems),
    )


def _overlap_problems(
    rules: Sequence[Located[Rule]], conflicts: Mapping[str, tuple[str, ...]]
) -> list[PackProblem]:
    """Two published rules of one concept, for the same askers, in force on a common day with
    different values: the knowledge base would hold two answers for that day. Allowed only when
    one names the other in `conflicts_with` (a conflict kept on purpose, settled at answer
    time or refused as UNRESOLVED_CONFLICT)."""
    by_concept: dict[str, list[Located[Rule]]] = defaultdict(list)
    for located in rules:
        if located.value.status == "PUBLISHED":
            by_concept[located.value.concept].append(located)
    found: list[PackProblem] = []
    for group in by_concept.values():
        for index, first in enumerate(group):
            for second in group[index + 1 :]:
                a, b = first.value, second.value
                if a.value == b.value or a.applies_when != b.applies_when or not _overlap(a, b):
                    continue
                if b.id in conflicts.get(a.id, ()) or a.id in conflicts.get(b.id, ()):
                    continue
                found.append(
                    PackProblem(
                        second.file,
                        second.record,
                        f"in force together with rule {a.id!r} ({first.file}) with another "
                        f"value ({b.value} vs {a.value}); end one period, or name the other "
                        "in conflicts_with if the sources really disagree",
                    )
                )
    return found


def _uncovered_fields(pack: ParsedPack) -> list[PackProblem]:
    """A rule's condition reads a field no checklist of its pack's topics lists: nothing would
    ever ask the client for it, so the rule could never be settled for them."""
    found: list[PackProblem] = []
    for rule in pack.rules:
        # a condition that does not parse was refused with the rule already
        for name in sorted(fields_of(parse_condition(rule.value.applies_when))):
            if name not in pack.topic_facts:
                problem = (
                    f"applies_when reads {name!r}, which no topic of pack {pack.name!r} lists; "
                    f"add {{fact: {name}, ...}} to the checklist of its topic in pack.yaml"
                )
                found.append(PackProblem(rule.file, rule.record, problem))
    return found


def _overlap(a: Rule, b: Rule) -> bool:
    return (a.effective_until is None or b.effective_from < a.effective_until) and (
        b.effective_until is None or a.effective_from < b.effective_until
    )


def _unique(
    problems: list[PackProblem],
    records: Iterable[Located[_T]],
    what: str,
    name_of: Callable[[_T], str],
    hint: str = "",
) -> list[Located[_T]]:
    """The records whose name was not seen before; each repeat is reported."""
    first: dict[str, Located[_T]] = {}
    for record in records:
        name = name_of(record.value)
        if name in first:
            seen = first[name]
            problem = f"duplicate {what} {name!r} (first in {seen.file}: {seen.record}){hint}"
            problems.append(PackProblem(record.file, record.record, problem))
        else:
            first[name] = record
    return list(first.values())


def _quote_problems(rule: Located[Rule], texts: dict[str, str]) -> list[PackProblem]:
    """Quotes missing from their evidence text, and a PUBLISHED value no quote states."""
    problems: list[PackProblem] = []
    for pointer in rule.value.pointers:
        text = texts.get(pointer.evidence_id)
        if text is not None and normalise_quote(pointer.quote) not in normalise_quote(text):
            problem = (
                f"quote not found verbatim in evidence {pointer.evidence_id!r} "
                f"({_excerpt(pointer.quote)})"
            )
            problems.append(PackProblem(rule.file, rule.record, problem))
        elif text is not None and not whole_sentences(pointer.quote, text):
            whole = widen_to_sentences(pointer.quote, text) or ""
            problem = (
                f"quote is part of a sentence ({_excerpt(pointer.quote)}); quote the whole "
                f"sentence or table row: {_excerpt(whole)}"
            )
            problems.append(PackProblem(rule.file, rule.record, problem))
    problems += _value_label_problems(rule)
    value, value_type = rule.value.value, rule.value.value_type
    quotes = [pointer.quote for pointer in rule.value.pointers]
    stated = any(value_stated(value, value_type, quote) for quote in quotes)
    if rule.value.status == "PUBLISHED" and quotes and not stated:
        problem = f"value {value!r} ({value_type}) is not stated in any of its quotes"
        problems.append(PackProblem(rule.file, rule.record, problem))
    if rule.value.status == "PUBLISHED" and rule.value.verified_as_of is None:
        problem = "a PUBLISHED rule needs verified_as_of: the last date its evidence speaks for"
        problems.append(PackProblem(rule.file, rule.record, problem))
    return problems


# Value types an answer shows with the pack's unit (currencies, rates, years and dates have
# their own notation in every language).
_UNIT_SHOWN = frozenset({"integer"})


def _value_label_problems(rule: Located[Rule]) -> list[PackProblem]:
    """A text value is worded in every language (an answer is entirely in the asker's
    language), each wording states the same numbers as the value it stands for, and a unit
    is one Navod words in every language."""
    labels, value = rule.value.value_label, rule.value.value
    problems: list[str] = []
    if rule.value.value_type == "text" and set(labels) != set(LANGUAGES):
        problems.append(
            "a text value needs value_label in hr, nl and en (the value as each reads it)"
        )
    unit = rule.value.unit.strip()
    if rule.value.value_type in _UNIT_SHOWN and unit and unit not in KNOWN_UNITS:
        problems.append(
            f"unit {unit!r} has no wording in hr, nl and en; use one of "
            + ", ".join(sorted(KNOWN_UNITS))
        )
    wanted = numbers_stated(value)
    for language, label in sorted(labels.items()):
        if numbers_stated(label) != wanted:
            problems.append(f"value_label.{language} {label!r} states other numbers than {value!r}")
    return [PackProblem(rule.file, rule.record, problem) for problem in problems]


def _faq_rule_problems(
    faq: Located[FaqEntry], rule_id: str, rule_concepts: dict[str, str]
) -> list[PackProblem]:
    """The rule is known but answers another concept than the one the FAQ entry names."""
    concept = rule_concepts.get(rule_id)
    if concept is None or concept == faq.value.concept:
        return []
    problem = (
        f"rule {rule_id!r} belongs to concept {concept!r}, not {faq.value.concept!r}; "
        "point the entry at that concept or drop the rule"
    )
    return [PackProblem(faq.file, faq.record, problem)]


def _excerpt(quote: str) -> str:
    short = quote if len(quote) <= _EXCERPT else quote[:_EXCERPT] + "…"
    return f'"{short}"'


def _resolve(rule: Rule, by_key: dict[str, Evidence]) -> Rule:
    """The rule with each pointer's evidence key replaced by that evidence's id."""
    pointers = tuple(
        Pointer(
            evidence_id=by_key[p.evidence_id].id if p.evidence_id in by_key else "", quote=p.quote
        )
        for p in rule.pointers
    )
    return replace(rule, pointers=pointers)


def _source_id(source: Source) -> str:
    return source.id


def _key(evidence: Evidence) -> str:
    return evidence.key


def _evidence_id(evidence: Evidence) -> str:
    return evidence.id


def _referenced_concepts(concept: Concept) -> list[str]:
    """Concepts a concept's threshold or date rule names (a threshold side that is not an
    obligation type is the slug of the concept that applies on that side)."""
    found: list[str] = []
    if concept.threshold is not None:
        sides = (concept.threshold.above, concept.threshold.at_or_below)
        found += [side for side in sides if side not in OBLIGATION_TYPES]
    if concept.date_from_age is not None:
        found.append(concept.date_from_age.age_concept)
    return found


def _slug(concept: Concept) -> str:
    return concept.slug


def _rule_id(rule: Rule) -> str:
    return rule.id


def _faq_id(faq: FaqEntry) -> str:
    return faq.id


def _topic_id(topic: PlanningTopic) -> str:
    return topic.id


def _resolution_id(resolution: ConflictResolution) -> str:
    return resolution.id


def _faq_question(faq: FaqEntry) -> str:
    """Language and folded question: case, accents, spacing and end punctuation do not count."""
    return f"{faq.language}: {fold(faq.question).rstrip('?!. ')}"
