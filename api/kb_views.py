"""What `/api/kb` shows of the knowledge base: sources with their evidence, rules one page at
a time, and a concept with the history of its value. Read from the service's snapshot, so a
browse costs no database round trip and always matches what answers are given from."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from pydantic import BaseModel, Field

from engine.snapshot import Snapshot
from engine.types import Rule

MAX_PAGE = 200


class SourceView(BaseModel):
    id: str
    title: str
    act: str
    publisher: str
    authority: str = Field(description="LAW, REGULATION, GUIDANCE or PRACTICE")
    jurisdiction: str
    language: str
    licence: str
    url: str
    fetched: list[str] = Field(description="When each evidence text of it was fetched (UTC)")
    evidence: list[str] = Field(description="The ids of its evidence texts")


class SourceList(BaseModel):
    version: int
    sources: list[SourceView]


class RuleView(BaseModel):
    id: str
    concept: str
    jurisdiction: str
    value: str
    unit: str
    effective_from: date
    effective_until: date | None = Field(description="Exclusive; null while in force")
    authority: str
    status: str
    verified_as_of: date | None
    applies_when: object | None = None
    evidence: list[str]


class RulePage(BaseModel):
    version: int
    rules: list[RuleView]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null at the end"
    )


class HistoryEntry(BaseModel):
    rule: str
    value: str
    unit: str
    effective_from: date
    effective_until: date | None
    status: str
    authority: str


class ConceptView(BaseModel):
    slug: str
    domain: str
    jurisdiction: str
    labels: dict[str, str]
    family: str | None
    history: list[HistoryEntry] = Field(description="Every rule of it, oldest first")


def sources(snapshot: Snapshot) -> SourceList:
    by_source: dict[str, list[str]] = {}
    fetched: dict[str, set[str]] = {}
    for item in snapshot.evidence.values():
        by_source.setdefault(item.source_id, []).append(item.id)
        fetched.setdefault(item.source_id, set()).add(item.fetched_at.isoformat())
    return SourceList(
        version=snapshot.version,
        sources=[
            SourceView(
                id=s.id,
                title=s.title,
                act=s.act_id,
                publisher=s.publisher,
                authority=s.authority,
                jurisdiction=s.jurisdiction,
                language=s.language,
                licence=s.licence,
                url=s.url,
                fetched=sorted(fetched.get(s.id, ())),
                evidence=sorted(by_source.get(s.id, ())),
            )
            for s in sorted(snapshot.sources.values(), key=lambda s: s.id)
        ],
    )


def rule_page(
    snapshot: Snapshot,
    concept: str | None,
    jurisdiction: str | None,
    as_of: date | None,
    limit: int,
    cursor: str | None,
) -> RulePage:
    """Rules sorted by id, filtered; a page starts after the `cursor` rule id."""
    matching = [
        rule
        for rule in sorted(snapshot.rules.values(), key=lambda r: r.id)
        if (concept is None or rule.concept == concept)
        and (jurisdiction is None or snapshot.concepts[rule.concept].jurisdiction == jurisdiction)
        and (as_of is None or rule.in_force_on(as_of))
        and (cursor is None or rule.id > cursor)
    ]
    page = matching[:limit]
    more = len(matching) > limit
    return RulePage(
        version=snapshot.version,
        rules=[_rule_view(rule, snapshot) for rule in page],
        next_cursor=page[-1].id if more and page else None,
    )


def concept_view(snapshot: Snapshot, slug: str) -> ConceptView | None:
    concept = snapshot.concepts.get(slug)
    if concept is None:
        return None
    rules: Sequence[Rule] = sorted(
        snapshot.rules_by_concept.get(slug, ()), key=lambda r: (r.effective_from, r.id)
    )
    return ConceptView(
        slug=concept.slug,
        domain=concept.domain,
        jurisdiction=concept.jurisdiction,
        labels=dict(concept.labels),
        family=concept.family or None,
        history=[
            HistoryEntry(
                rule=r.id,
                value=r.value,
                unit=r.unit,
                effective_from=r.effective_from,
                effective_until=r.effective_until,
                status=r.status,
                authority=r.authority,
            )
            for r in rules
        ],
    )


def _rule_view(rule: Rule, snapshot: Snapshot) -> RuleView:
    return RuleView(
        id=rule.id,
        concept=rule.concept,
        jurisdiction=snapshot.concepts[rule.concept].jurisdiction,
        value=rule.value,
        unit=rule.unit,
        effective_from=rule.effective_from,
        effective_until=rule.effective_until,
        authority=rule.authority,
        status=rule.status,
        verified_as_of=rule.verified_as_of,
        applies_when=rule.applies_when,
        evidence=list(dict.fromkeys(p.evidence_id for p in rule.pointers)),
    )
