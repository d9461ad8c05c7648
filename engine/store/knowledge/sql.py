"""SqlRepository: the knowledge repository on SQLite or PostgreSQL (one schema, see tables.py)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.orm import Session
from sqlmodel import SQLModel, col

from engine.errors import StoreError
from engine.store.knowledge.convert import (
    to_concept,
    to_concept_row,
    to_evidence,
    to_evidence_row,
    to_faq,
    to_faq_row,
    to_pointer,
    to_resolution,
    to_resolution_row,
    to_rule,
    to_rule_row,
    to_source,
    to_source_row,
    to_topic,
    to_topic_row,
)
from engine.store.knowledge.repository import (
    faq_reference_problem,
    merged_pack_names,
    record_key,
    resolution_reference_problem,
    topic_positions,
)
from engine.store.knowledge.tables import (
    KB_META_ID,
    ConceptRow,
    EvidenceRow,
    FaqRow,
    KbMetaRow,
    ResolutionRow,
    RulePointerRow,
    RuleRow,
    SourceRow,
    TopicRow,
)
from engine.store.outage import translates_outage
from engine.types import Concept, Evidence, KnowledgeBase, Pointer, Rule

if TYPE_CHECKING:
    from engine.store.knowledge.packs import PackContents

# A read retries when a load commits while it runs (the version moved), so callers always get
# one consistent snapshot without needing snapshot isolation on SQLite.
_READ_ATTEMPTS = 3

_Row = TypeVar("_Row", bound=SQLModel)


class SqlRepository:
    """KnowledgeRepository over an SQLAlchemy engine whose database is migrated to head."""

    def __init__(self, engine: sa.Engine) -> None:
        self._engine = engine

    @translates_outage("knowledge.version")
    def version(self) -> int:
        with Session(self._engine) as session:
            return _version(session)

    @translates_outage("knowledge.load_knowledge")
    def load_knowledge(self) -> KnowledgeBase:
        for _ in range(_READ_ATTEMPTS):
            with Session(self._engine) as session:
                before = _version(session)
                knowledge = _read_all(session, before)
                if _version(session) == before:
                    return knowledge
        raise StoreError("the knowledge base kept changing while being read; try again")

    def save_knowledge(self, contents: PackContents, packs: Sequence[str]) -> int:
        try:
            with Session(self._engine) as session, session.begin():
                return _write_all(session, contents, packs)
        except sa.exc.SQLAlchemyError as error:
            reason = getattr(error, "orig", None) or error
            raise StoreError(
                f"saving the knowledge base failed and nothing was written: {reason}"
            ) from error

    @translates_outage("knowledge.counts")
    def counts(self) -> dict[str, int]:
        tables: dict[str, type[SQLModel]] = {
            "sources": SourceRow,
            "evidence": EvidenceRow,
            "concepts": ConceptRow,
            "rules": RuleRow,
            "pointers": RulePointerRow,
            "faqs": FaqRow,
            "topics": TopicRow,
            "resolutions": ResolutionRow,
        }
        with Session(self._engine) as session:
            return {
                name: int(session.scalar(sa.select(sa.func.count()).select_from(row)) or 0)
                for name, row in tables.items()
            }

    @translates_outage("knowledge.owned")
    def owned(self, packs: Sequence[str]) -> frozenset[str]:
        tables: list[tuple[str, Any, Any]] = [
            ("source", SourceRow.id, SourceRow.pack),
            ("evidence", EvidenceRow.id, EvidenceRow.pack),
            ("concept", ConceptRow.slug, ConceptRow.pack),
            ("rule", RuleRow.id, RuleRow.pack),
            ("faq", FaqRow.id, FaqRow.pack),
            ("topic", TopicRow.id, TopicRow.pack),
            ("resolution", ResolutionRow.id, ResolutionRow.pack),
        ]
        with Session(self._engine) as session:
            return frozenset(
                record_key(kind, name)
                for kind, key, pack in tables
                for name in session.scalars(sa.select(col(key)).where(col(pack).in_(packs)))
            )

    @translates_outage("knowledge.get_rule")
    def get_rule(self, rule_id: str) -> Rule | None:
        with Session(self._engine) as session:
            row = session.get(RuleRow, rule_id)
            if row is None:
                return None
            pointers = session.scalars(
                sa.select(RulePointerRow)
                .where(col(RulePointerRow.rule_id) == rule_id)
                .order_by(col(RulePointerRow.position))
            )
            return to_rule(row, tuple(to_pointer(pointer) for pointer in pointers))

    @translates_outage("knowledge.list_concepts")
    def list_concepts(self) -> tuple[Concept, ...]:
        with Session(self._engine) as session:
            rows = session.scalars(sa.select(ConceptRow).order_by(col(ConceptRow.slug)))
            return tuple(to_concept(row) for row in rows)


def _version(session: Session) -> int:
    meta = session.get(KbMetaRow, KB_META_ID)
    return 0 if meta is None else meta.version


def _read_all(session: Session, version: int) -> KnowledgeBase:
    pointers: dict[str, list[Pointer]] = defaultdict(list)
    pointer_rows = session.scalars(
        sa.select(RulePointerRow).order_by(
            col(RulePointerRow.rule_id), col(RulePointerRow.position)
        )
    )
    for pointer in pointer_rows:
        pointers[pointer.rule_id].append(to_pointer(pointer))
    return KnowledgeBase(
        version=version,
        sources=tuple(to_source(row) for row in _all(session, SourceRow, SourceRow.id)),
        evidence=tuple(to_evidence(row) for row in _all(session, EvidenceRow, EvidenceRow.id)),
        concepts=tuple(to_concept(row) for row in _all(session, ConceptRow, ConceptRow.slug)),
        rules=tuple(
            to_rule(row, tuple(pointers[row.id])) for row in _all(session, RuleRow, RuleRow.id)
        ),
        faqs=tuple(to_faq(row) for row in _all(session, FaqRow, FaqRow.id)),
        # sorted here, not by the database: its collation may order pack names otherwise
        topics=tuple(
            to_topic(row)
            for row in sorted(
                session.scalars(sa.select(TopicRow)), key=lambda r: (r.pack, r.position, r.id)
            )
        ),
        resolutions=tuple(
            to_resolution(row) for row in _all(session, ResolutionRow, ResolutionRow.id)
        ),
    )


def _all(session: Session, row: type[_Row], key: Any) -> Iterable[_Row]:
    """Every row of a table ordered by `key`, so reads are deterministic."""
    return session.scalars(sa.select(row).order_by(col(key)))


def _write_all(session: Session, contents: PackContents, packs: Sequence[str]) -> int:
    # Lock the version row first so concurrent loads on PostgreSQL queue up behind each other.
    meta = session.get(KbMetaRow, KB_META_ID, with_for_update=True)
    if meta is None:
        meta = KbMetaRow(id=KB_META_ID, version=0, packs="")
        session.add(meta)
    owner = contents.owners.get
    for source in contents.sources:
        session.merge(_owned(to_source_row(source), owner(record_key("source", source.id))))
    session.flush()
    rule_ids = [rule.id for rule in contents.rules]
    session.execute(sa.delete(RulePointerRow).where(col(RulePointerRow.rule_id).in_(rule_ids)))
    _drop_replaced_evidence(session, contents.evidence)
    for evidence in contents.evidence:
        row = to_evidence_row(evidence)
        session.merge(_owned(row, owner(record_key("evidence", evidence.id))))
    for concept in contents.concepts:
        session.merge(_owned(to_concept_row(concept), owner(record_key("concept", concept.slug))))
    session.flush()
    for rule in contents.rules:
        session.merge(_owned(to_rule_row(rule), owner(record_key("rule", rule.id))))
    session.flush()
    session.add_all(_pointer_rows(contents.rules))
    for faq in contents.faqs:
        session.merge(_owned(to_faq_row(faq), owner(record_key("faq", faq.id))))
    for position, topic in topic_positions(contents.topics):
        session.merge(to_topic_row(topic, position))  # owned by its own pack
    for resolution in contents.resolutions:
        decided = to_resolution_row(resolution)
        session.merge(_owned(decided, owner(record_key("resolution", resolution.id))))
    session.flush()
    _drop_removed(session, contents, packs)
    _check_faq_rules(session)
    _check_resolutions(session)
    meta.version += 1
    meta.loaded_at = datetime.now(UTC)
    meta.packs = merged_pack_names(meta.packs, packs)
    session.flush()
    return meta.version


_OwnedRow = TypeVar("_OwnedRow", SourceRow, EvidenceRow, ConceptRow, RuleRow, FaqRow, ResolutionRow)


def _owned(row: _OwnedRow, pack: str | None) -> _OwnedRow:
    row.pack = pack
    return row


def _drop_removed(session: Session, contents: PackContents, packs: Sequence[str]) -> None:
    """Delete what the loaded packs held before and hold no longer, dependants first, so the
    database holds exactly what they hold; a record another pack still needs makes the
    foreign keys refuse the load (rolled back, nothing written)."""
    rule_ids = [rule.id for rule in contents.rules]
    gone_rules = session.scalars(
        sa.select(col(RuleRow.id)).where(
            col(RuleRow.pack).in_(packs), col(RuleRow.id).not_in(rule_ids)
        )
    ).all()
    session.execute(sa.delete(RulePointerRow).where(col(RulePointerRow.rule_id).in_(gone_rules)))
    tables: list[tuple[type[SQLModel], Any, Any, list[str]]] = [
        (ResolutionRow, ResolutionRow.id, ResolutionRow.pack, [r.id for r in contents.resolutions]),
        (TopicRow, TopicRow.id, TopicRow.pack, [topic.id for topic in contents.topics]),
        (FaqRow, FaqRow.id, FaqRow.pack, [faq.id for faq in contents.faqs]),
        (RuleRow, RuleRow.id, RuleRow.pack, rule_ids),
        (ConceptRow, ConceptRow.slug, ConceptRow.pack, [c.slug for c in contents.concepts]),
        (EvidenceRow, EvidenceRow.id, EvidenceRow.pack, [e.id for e in contents.evidence]),
        (SourceRow, SourceRow.id, SourceRow.pack, [s.id for s in contents.sources]),
    ]
    for row, key, pack, ids in tables:
        session.execute(sa.delete(row).where(col(pack).in_(packs), col(key).not_in(ids)))
        session.flush()


def _drop_replaced_evidence(session: Session, evidence: Sequence[Evidence]) -> None:
    """Delete rows whose key is being given a new text (so a new id); keys stay unique."""
    new_ids = [item.id for item in evidence]
    keys = [item.key for item in evidence]
    session.execute(
        sa.delete(EvidenceRow).where(
            col(EvidenceRow.key).in_(keys), col(EvidenceRow.id).not_in(new_ids)
        )
    )


def _check_faq_rules(session: Session) -> None:
    """Fail (rolling back) when a stored FAQ entry names a missing rule or another concept's."""
    rules = session.execute(sa.select(col(RuleRow.id), col(RuleRow.concept)))
    rule_concepts = {rule_id: concept for rule_id, concept in rules}
    faqs = (to_faq(row) for row in _all(session, FaqRow, FaqRow.id))
    problem = faq_reference_problem(faqs, rule_concepts)
    if problem:
        raise StoreError(f"saving the knowledge base failed and nothing was written: {problem}")


def _check_resolutions(session: Session) -> None:
    """Fail (rolling back) when a stored resolution's evidence is gone or its winner is not
    one of its two rules (the rules themselves are foreign keys)."""
    evidence_ids = set(session.scalars(sa.select(col(EvidenceRow.id))))
    resolutions = (to_resolution(row) for row in _all(session, ResolutionRow, ResolutionRow.id))
    problem = resolution_reference_problem(resolutions, evidence_ids)
    if problem:
        raise StoreError(f"saving the knowledge base failed and nothing was written: {problem}")


def _pointer_rows(rules: Iterable[Rule]) -> list[RulePointerRow]:
    return [
        RulePointerRow(
            rule_id=rule.id, position=position, evidence_id=pointer.evidence_id, quote=pointer.quote
        )
        for rule in rules
        for position, pointer in enumerate(rule.pointers)
    ]
