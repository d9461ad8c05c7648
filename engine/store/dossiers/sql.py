"""SqlDossierRepository: dossiers on SQLite or PostgreSQL (tables.py, revision 0004).

`update` (a conversation turn) is one transaction that starts by locking the dossier: on
PostgreSQL `SELECT … FOR UPDATE` on its row, on SQLite `BEGIN IMMEDIATE` (the database's one
write lock). A second writer waits there, up to the busy timeout on SQLite, and then reads the
dossier as the first one left it, so concurrent turns serialise instead of failing. `create`
writes a new dossier and its first patch in one transaction. `apply` is the optimistic form:
its UPDATE bumps the version only where it still equals the patch's base version. Events never
interleave and seqs never repeat (the (dossier_id, seq) key guards that too).

Reads fetch only the events this process does not know yet (cache.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, cast

import sqlalchemy as sa
from sqlmodel import SQLModel

from engine.dossier.model import Dossier, Event, Patch
from engine.dossier.ownership import ANONYMOUS
from engine.errors import DossierNotFound, StoreError, VersionConflict
from engine.store.db import as_utc
from engine.store.dossiers.cache import KnownDossiers
from engine.store.dossiers.convert import (
    REFUSAL,
    TURN_KIND,
    DossierSummary,
    event_kind,
    event_record,
    events_from_rows,
    shown_seq,
    stored_payload,
    turn_record,
)
from engine.store.dossiers.tables import DossierEventRow, DossierRow, TurnShownRow
from engine.store.outage import translates_outage
from engine.types import Language, Surface

_DOSSIER: sa.Table = SQLModel.metadata.tables[str(DossierRow.__tablename__)]
_EVENT: sa.Table = SQLModel.metadata.tables[str(DossierEventRow.__tablename__)]
_SHOWN: sa.Table = SQLModel.metadata.tables[str(TurnShownRow.__tablename__)]
# An asker's newest first; the id breaks ties so the order is the same on every database.
_NEWEST_FIRST = (_DOSSIER.c.updated_at.desc(), _DOSSIER.c.id)


class SqlDossierRepository:
    """DossierRepository over an engine from make_engine (SQLite needs its foreign keys on, for
    the events' ON DELETE CASCADE) on a database migrated to head."""

    def __init__(self, engine: sa.Engine) -> None:
        self._engine = engine
        self._known = KnownDossiers()

    @translates_outage("dossiers.create")
    def create(
        self,
        dossier_id: str,
        asker: str,
        surface: Surface,
        language: Language,
        now: datetime,
        make_patch: Callable[[Dossier], Patch] | None = None,
    ) -> Dossier:
        # SQLite keeps no time zone: every stored moment is UTC, so they also sort as text.
        moment = as_utc(now)
        empty = Dossier(dossier_id, asker, surface, language, moment, moment, version=0)
        patch = make_patch(empty) if make_patch is not None else Patch(0, ())
        count = len(patch.records)
        try:
            with self._engine.begin() as connection:
                connection.execute(
                    _DOSSIER.insert().values(
                        id=dossier_id,
                        asker=asker,
                        surface=surface,
                        language=patch.language or language,
                        created_at=moment,
                        updated_at=moment,
                        version=0 if patch.empty else 1,
                        event_count=count,
                    )
                )
                added = _insert_events(connection, dossier_id, 0, patch, moment)
        except sa.exc.IntegrityError as error:
            raise StoreError(f"a dossier with id {dossier_id!r} already exists") from error
        dossier = _applied(empty, patch, added, moment)
        self._known.remember(dossier)
        return dossier

    @translates_outage("dossiers.get")
    def get(self, dossier_id: str) -> Dossier | None:
        with self._engine.connect() as connection:
            row = connection.execute(_select_dossier(dossier_id)).first()
            if row is None:
                self._known.forget(dossier_id)
                return None
            return self._current(connection, row)

    @translates_outage("dossiers.update")
    def update(
        self, dossier_id: str, make_patch: Callable[[Dossier], Patch], now: datetime
    ) -> Dossier:
        moment = as_utc(now)
        with self._engine.begin() as connection:
            if connection.dialect.name == "sqlite":
                # pysqlite would begin deferred, and a deferred reader that then writes fails at
                # once when another writer got in between; IMMEDIATE waits (the busy timeout).
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            row = connection.execute(_select_dossier(dossier_id).with_for_update()).first()
            if row is None:
                self._known.forget(dossier_id)
                raise DossierNotFound(dossier_id)
            current = self._current(connection, row)
            if current is None:  # cannot happen under the lock; fail closed all the same
                raise DossierNotFound(dossier_id)
            patch = make_patch(current)
            if patch.empty:
                return current
            changes: dict[str, Any] = {
                "version": row.version + 1,
                "event_count": row.event_count + len(patch.records),
                "updated_at": moment,
            }
            if patch.language is not None:
                changes["language"] = patch.language
            added = _insert_events(connection, dossier_id, row.event_count, patch, moment)
            connection.execute(_DOSSIER.update().where(_DOSSIER.c.id == dossier_id).values(changes))
        dossier = _applied(current, patch, added, moment)
        self._known.remember(dossier)  # only once committed
        return dossier

    @translates_outage("dossiers.apply")
    def apply(self, dossier_id: str, patch: Patch, now: datetime) -> Dossier:
        if patch.empty:
            return self._unchanged(dossier_id, patch.base_version)
        moment = as_utc(now)
        count = len(patch.records)
        changes: dict[str, Any] = {
            "version": _DOSSIER.c.version + 1,
            "event_count": _DOSSIER.c.event_count + count,
            "updated_at": moment,
        }
        if patch.language is not None:
            changes["language"] = patch.language
        with self._engine.begin() as connection:
            bumped = connection.execute(
                _DOSSIER.update()
                .where(_DOSSIER.c.id == dossier_id, _DOSSIER.c.version == patch.base_version)
                .values(changes)
            )
            if bumped.rowcount == 0:
                raise _refusal(connection, dossier_id, patch.base_version)
            row = connection.execute(_select_dossier(dossier_id)).one()
            first = row.event_count - count
            added = _insert_events(connection, dossier_id, first, patch, moment)
            known = self._known.lookup(dossier_id, as_utc(row.created_at))
            if known is not None and known.version == patch.base_version:
                prior = known.events  # exactly the events the patch was made after
            else:
                prior = events_from_rows(
                    connection.execute(_select_events(dossier_id).where(_EVENT.c.seq < first)).all()
                )
            dossier = _dossier(row, (*prior, *added))
        self._known.remember(dossier)  # only once committed
        return dossier

    @translates_outage("dossiers.shown")
    def shown(self, dossier_id: str) -> dict[int, bytes]:
        query = sa.select(_SHOWN.c.seq, _SHOWN.c.body).where(_SHOWN.c.dossier_id == dossier_id)
        with self._engine.connect() as connection:
            return {row.seq: row.body.encode() for row in connection.execute(query)}

    @translates_outage("dossiers.delete")
    def delete(self, dossier_id: str) -> bool:
        with self._engine.begin() as connection:
            deleted = connection.execute(_DOSSIER.delete().where(_DOSSIER.c.id == dossier_id))
        self._known.forget(dossier_id)
        return deleted.rowcount > 0

    @translates_outage("dossiers.recent")
    def recent(self, asker: str, limit: int) -> tuple[DossierSummary, ...]:
        if limit <= 0:
            return ()
        newest = (
            sa.select(_DOSSIER.c.id)
            .where(_DOSSIER.c.asker == asker)
            .order_by(*_NEWEST_FIRST)
            .limit(limit)
        )
        turns = (
            sa.select(
                _EVENT.c.dossier_id,
                sa.func.count().label("turns"),
                sa.func.max(_EVENT.c.seq).label("last_seq"),
            )
            .where(_EVENT.c.kind == TURN_KIND, _EVENT.c.dossier_id.in_(newest))
            .group_by(_EVENT.c.dossier_id)
            .subquery()
        )
        last_turn = _EVENT.alias("last_turn")
        # One statement, so the list, the turn counts and the last questions are one snapshot.
        query = (
            sa.select(_DOSSIER, turns.c.turns, last_turn.c.payload)
            .outerjoin(turns, turns.c.dossier_id == _DOSSIER.c.id)
            .outerjoin(
                last_turn,
                sa.and_(
                    last_turn.c.dossier_id == turns.c.dossier_id,
                    last_turn.c.seq == turns.c.last_seq,
                ),
            )
            .where(_DOSSIER.c.asker == asker)
            .order_by(*_NEWEST_FIRST)
            .limit(limit)
        )
        with self._engine.connect() as connection:
            rows = connection.execute(query).all()
        return tuple(_summary(row) for row in rows)

    @translates_outage("dossiers.prune")
    def prune(self, now: datetime, max_age: timedelta, max_per_asker: int) -> int:
        cutoff = as_utc(now) - max_age
        rank = (
            sa.func.row_number()
            .over(partition_by=_DOSSIER.c.asker, order_by=_NEWEST_FIRST)
            .label("rank")
        )
        # Anonymous dossiers share one asker but not an owner: only their age limits them.
        ranked = sa.select(_DOSSIER.c.id, rank).where(_DOSSIER.c.asker != ANONYMOUS).subquery()
        beyond_count = sa.select(ranked.c.id).where(ranked.c.rank > max_per_asker)
        with self._engine.begin() as connection:
            too_old = connection.execute(_DOSSIER.delete().where(_DOSSIER.c.updated_at < cutoff))
            too_many = connection.execute(_DOSSIER.delete().where(_DOSSIER.c.id.in_(beyond_count)))
            return too_old.rowcount + too_many.rowcount

    @translates_outage("dossiers.refused_turns")
    def refused_turns(self, since: datetime | None = None) -> tuple[Event, ...]:
        query = (
            sa.select(_EVENT.c.seq, _EVENT.c.at, _EVENT.c.kind, _EVENT.c.payload)
            .where(_EVENT.c.kind == TURN_KIND, _EVENT.c.payload["kind"].as_string() == REFUSAL)
            .order_by(_EVENT.c.at, _EVENT.c.dossier_id, _EVENT.c.seq)
        )
        if since is not None:
            query = query.where(_EVENT.c.at >= as_utc(since))
        with self._engine.connect() as connection:
            return events_from_rows(connection.execute(query).all())

    def _current(self, connection: sa.Connection, row: Any) -> Dossier | None:
        """The dossier as `row` (just read) states it: the events this process already knows,
        and only the newer ones read; None if it was deleted between the two reads."""
        known = self._known.lookup(row.id, as_utc(row.created_at))
        if known is not None and known.version == row.version:
            return known
        prior = known.events if known is not None and known.version < row.version else ()
        # Only events below the row's count: those were committed with (or before) the row as
        # read, so the two reads agree even when a writer commits in between.
        newer = connection.execute(
            _select_events(row.id).where(_EVENT.c.seq >= len(prior), _EVENT.c.seq < row.event_count)
        ).all()
        if len(prior) + len(newer) < row.event_count:
            return None
        dossier = _dossier(row, (*prior, *events_from_rows(newer)))
        self._known.remember(dossier)
        return dossier

    def _unchanged(self, dossier_id: str, base_version: int) -> Dossier:
        """An empty patch writes nothing, but is refused like any other when it is stale."""
        dossier = self.get(dossier_id)
        if dossier is None:
            raise DossierNotFound(dossier_id)
        if dossier.version != base_version:
            raise VersionConflict(dossier_id, base_version)
        return dossier


def _select_dossier(dossier_id: str) -> sa.Select[Any]:
    return sa.select(_DOSSIER).where(_DOSSIER.c.id == dossier_id)


def _select_events(dossier_id: str) -> sa.Select[Any]:
    return (
        sa.select(_EVENT.c.seq, _EVENT.c.at, _EVENT.c.kind, _EVENT.c.payload)
        .where(_EVENT.c.dossier_id == dossier_id)
        .order_by(_EVENT.c.seq)
    )


def _insert_events(
    connection: sa.Connection, dossier_id: str, first: int, patch: Patch, moment: datetime
) -> tuple[Event, ...]:
    """Insert the patch's records as events `first`, `first + 1`, …; the events as stored."""
    if patch.empty:
        return ()
    stored: list[dict[str, Any]] = [
        {
            "dossier_id": dossier_id,
            "seq": first + offset,
            "kind": event_kind(record),
            "at": moment,
            "payload": stored_payload(record),
        }
        for offset, record in enumerate(patch.records)
    ]
    connection.execute(_EVENT.insert(), stored)
    seq = shown_seq(first, patch)
    if seq is not None:
        connection.execute(
            _SHOWN.insert().values(dossier_id=dossier_id, seq=seq, body=patch.shown.decode())
        )
    return tuple(
        Event(item["seq"], moment, event_record(item["kind"], item["payload"])) for item in stored
    )


def _applied(before: Dossier, patch: Patch, added: tuple[Event, ...], moment: datetime) -> Dossier:
    """`before` with the patch's events appended, as `update` and `create` stored it."""
    if patch.empty:
        return before
    return replace(
        before,
        language=patch.language or before.language,
        updated_at=moment,
        version=before.version + 1,
        events=(*before.events, *added),
    )


def _refusal(connection: sa.Connection, dossier_id: str, base_version: int) -> Exception:
    """Why no row was bumped: the dossier is gone, or it moved past the patch's version."""
    exists = connection.execute(sa.select(_DOSSIER.c.id).where(_DOSSIER.c.id == dossier_id))
    if exists.first() is None:
        return DossierNotFound(dossier_id)
    return VersionConflict(dossier_id, base_version)


def _dossier(row: Any, events: tuple[Event, ...]) -> Dossier:
    return Dossier(
        id=row.id,
        asker=row.asker,
        surface=cast(Surface, row.surface),
        language=cast(Language, row.language),
        created_at=as_utc(row.created_at),
        updated_at=as_utc(row.updated_at),
        version=row.version,
        events=events,
    )


def _summary(row: Any) -> DossierSummary:
    last_question = "" if row.payload is None else turn_record(row.payload).question
    return DossierSummary(
        id=row.id,
        asker=row.asker,
        surface=cast(Surface, row.surface),
        language=cast(Language, row.language),
        created_at=as_utc(row.created_at),
        updated_at=as_utc(row.updated_at),
        turns=row.turns or 0,
        last_question=last_question,
    )
