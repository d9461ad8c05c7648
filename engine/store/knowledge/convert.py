"""Conversions between table rows (tables.py) and the frozen domain types (engine/types.py).

Enum-like columns are plain strings in the database; the pack loader validated them before
they were written, so reading them back casts without re-checking.
"""

from __future__ import annotations

from datetime import date
from typing import Any, cast

from engine.store.db import as_utc
from engine.store.knowledge.tables import (
    ConceptRow,
    EvidenceRow,
    FaqRow,
    ResolutionRow,
    RulePointerRow,
    RuleRow,
    SourceRow,
    TopicRow,
)
from engine.types import (
    Authority,
    CaptureMethod,
    ChecklistItem,
    Concept,
    ConflictResolution,
    DateFromAge,
    Evidence,
    FactKind,
    FaqEntry,
    Jurisdiction,
    Language,
    Localised,
    ObligationType,
    PlanningTopic,
    Pointer,
    ResolutionStrategy,
    RiskTier,
    Rule,
    RuleStatus,
    Source,
    Stability,
    Threshold,
    ValueType,
)


def to_source_row(source: Source) -> SourceRow:
    return SourceRow(
        id=source.id,
        title=source.title,
        act_id=source.act_id,
        authority=source.authority,
        jurisdiction=source.jurisdiction,
        language=source.language,
        url=source.url,
        publisher=source.publisher,
        licence=source.licence,
        reflects=list(source.reflects) or None,
    )


def to_source(row: SourceRow) -> Source:
    return Source(
        id=row.id,
        title=row.title,
        act_id=row.act_id,
        authority=cast(Authority, row.authority),
        jurisdiction=cast(Jurisdiction, row.jurisdiction),
        language=cast(Language, row.language),
        url=row.url,
        publisher=row.publisher,
        licence=row.licence,
        reflects=tuple(row.reflects or ()),
    )


def to_evidence_row(evidence: Evidence) -> EvidenceRow:
    return EvidenceRow(
        id=evidence.id,
        key=evidence.key,
        source_id=evidence.source_id,
        locator=evidence.locator,
        text=evidence.text,
        sha256=evidence.sha256,
        url=evidence.url,
        fetched_at=as_utc(evidence.fetched_at),
        capture_method=evidence.capture_method,
        note=evidence.note,
    )


def to_evidence(row: EvidenceRow) -> Evidence:
    return Evidence(
        id=row.id,
        key=row.key,
        source_id=row.source_id,
        locator=row.locator,
        text=row.text,
        sha256=row.sha256,
        url=row.url,
        fetched_at=as_utc(row.fetched_at),
        capture_method=cast(CaptureMethod, row.capture_method),
        note=row.note,
    )


def to_concept_row(concept: Concept) -> ConceptRow:
    return ConceptRow(
        slug=concept.slug,
        domain=concept.domain,
        jurisdiction=concept.jurisdiction,
        labels=dict(sorted(concept.labels.items())),
        aliases={lang: list(names) for lang, names in sorted(concept.aliases.items())},
        understanding=_understanding_of(concept),
    )


def _understanding_of(concept: Concept) -> dict[str, Any] | None:
    """The concept's understanding fields and its caveat as JSON, only those it declares
    (None for none)."""
    found: dict[str, Any] = {}
    if concept.family:
        found["family"] = concept.family
    if concept.answers:
        found["answers"] = list(concept.answers)
    if concept.varies_by:
        found["varies_by"] = list(concept.varies_by)
    if concept.threshold is not None:
        threshold = concept.threshold
        found["threshold"] = {
            "facts": list(threshold.facts),
            "above": threshold.above,
            "at_or_below": threshold.at_or_below,
        }
        if threshold.since is not None:
            found["threshold"]["since"] = threshold.since.isoformat()
    if concept.date_from_age is not None:
        found["date_from_age"] = {
            "age_concept": concept.date_from_age.age_concept,
            "after_years": concept.date_from_age.after_years,
        }
    if concept.caveat:
        found["caveat"] = dict(sorted(concept.caveat.items()))
    return found or None


def to_concept(row: ConceptRow) -> Concept:
    understanding = row.understanding or {}
    threshold = understanding.get("threshold")
    date_rule = understanding.get("date_from_age")
    return Concept(
        slug=row.slug,
        domain=row.domain,
        jurisdiction=cast(Jurisdiction, row.jurisdiction),
        labels=_localised(row.labels),
        aliases={cast(Language, lang): tuple(names) for lang, names in sorted(row.aliases.items())},
        family=understanding.get("family", ""),
        answers=tuple(understanding.get("answers", ())),
        varies_by=tuple(understanding.get("varies_by", ())),
        threshold=None if threshold is None else _threshold(threshold),
        date_from_age=None
        if date_rule is None
        else DateFromAge(date_rule["age_concept"], int(date_rule["after_years"])),
        caveat=_localised(understanding.get("caveat") or {}),
    )


def _threshold(raw: dict[str, Any]) -> Threshold:
    since = raw.get("since")
    return Threshold(
        tuple(raw["facts"]),
        raw["above"],
        raw["at_or_below"],
        date.fromisoformat(since) if since else None,
    )


def to_rule_row(rule: Rule) -> RuleRow:
    return RuleRow(
        id=rule.id,
        concept=rule.concept,
        title=dict(sorted(rule.title.items())),
        explanation=dict(sorted(rule.explanation.items())),
        value=rule.value,
        value_type=rule.value_type,
        unit=rule.unit,
        effective_from=rule.effective_from,
        effective_until=rule.effective_until,
        status=rule.status,
        authority=rule.authority,
        obligation_type=rule.obligation_type,
        risk_tier=rule.risk_tier,
        applies_when=rule.applies_when,
        confidence=rule.confidence,
        verified_as_of=rule.verified_as_of,
        stability=rule.stability,
        value_label=dict(sorted(rule.value_label.items())) or None,
        conflicts_with=list(rule.conflicts_with) or None,
    )


def to_rule(row: RuleRow, pointers: tuple[Pointer, ...]) -> Rule:
    return Rule(
        id=row.id,
        concept=row.concept,
        title=_localised(row.title),
        explanation=_localised(row.explanation),
        value=row.value,
        value_type=cast(ValueType, row.value_type),
        unit=row.unit,
        effective_from=row.effective_from,
        effective_until=row.effective_until,
        status=cast(RuleStatus, row.status),
        authority=cast(Authority, row.authority),
        obligation_type=cast(ObligationType, row.obligation_type),
        risk_tier=cast(RiskTier, row.risk_tier),
        applies_when=row.applies_when,
        pointers=pointers,
        confidence=row.confidence,
        verified_as_of=row.verified_as_of,
        stability=cast(Stability | None, row.stability),
        value_label=_localised(row.value_label or {}),
        conflicts_with=tuple(row.conflicts_with or ()),
    )


def _localised(raw: dict[str, str]) -> Localised:
    """Language-keyed texts in a stable (sorted) key order."""
    return {cast(Language, lang): text for lang, text in sorted(raw.items())}


def to_pointer(row: RulePointerRow) -> Pointer:
    return Pointer(evidence_id=row.evidence_id, quote=row.quote)


def to_resolution_row(resolution: ConflictResolution) -> ResolutionRow:
    return ResolutionRow(
        id=resolution.id,
        rule_a=resolution.conflict[0],
        rule_b=resolution.conflict[1],
        winner=resolution.winner,
        strategy=resolution.strategy,
        rationale=dict(sorted(resolution.rationale.items())),
        decided_by=resolution.decided_by,
        decided_at=resolution.decided_at,
        evidence=[{"evidence_id": p.evidence_id, "quote": p.quote} for p in resolution.evidence],
    )


def to_resolution(row: ResolutionRow) -> ConflictResolution:
    return ConflictResolution(
        id=row.id,
        conflict=(row.rule_a, row.rule_b),
        winner=row.winner,
        strategy=cast(ResolutionStrategy, row.strategy),
        rationale=_localised(row.rationale),
        decided_by=row.decided_by,
        decided_at=row.decided_at,
        evidence=tuple(Pointer(item["evidence_id"], item["quote"]) for item in row.evidence),
    )


def to_faq_row(faq: FaqEntry) -> FaqRow:
    return FaqRow(
        id=faq.id,
        language=faq.language,
        question=faq.question,
        concept=faq.concept,
        rules=list(faq.rules),
    )


def to_faq(row: FaqRow) -> FaqEntry:
    return FaqEntry(
        id=row.id,
        language=cast(Language, row.language),
        question=row.question,
        concept=row.concept,
        rules=tuple(row.rules),
    )


def to_topic_row(topic: PlanningTopic, position: int) -> TopicRow:
    return TopicRow(
        id=topic.id,
        pack=topic.pack,
        position=position,
        label=dict(sorted(topic.label.items())),
        checklist=[
            {
                "fact": item.fact,
                "weight": item.weight,
                "question": dict(sorted(item.question.items())),
                "subtopic": item.subtopic,
                "kind": item.kind,
            }
            for item in topic.checklist
        ],
    )


def to_topic(row: TopicRow) -> PlanningTopic:
    return PlanningTopic(
        id=row.id,
        pack=row.pack,
        label=_localised(row.label),
        checklist=tuple(
            ChecklistItem(
                fact=item["fact"],
                weight=int(item["weight"]),
                question=_localised(item["question"]),
                subtopic=item.get("subtopic", ""),
                kind=cast(FactKind, item.get("kind", "fact")),
            )
            for item in row.checklist
        ),
    )
