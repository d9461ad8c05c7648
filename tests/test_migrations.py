"""The alembic revisions build exactly the schema the models describe, up and down.

Runs on SQLite by default and on PostgreSQL when DATABASE_URL points at one (see conftest.py).
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlmodel import SQLModel

from engine.dossier.model import SourceRef, selection
from engine.store.db import alembic_config, current_revision, make_engine, migrate, migration_head
from engine.store.dossiers.sql import SqlDossierRepository
from engine.store.keys.secret import new_key
from engine.store.keys.sql import SqlKeyRepository
from engine.store.knowledge import convert
from engine.store.knowledge.packs import load_packs, verify_packs
from engine.store.knowledge.sql import SqlRepository
from engine.types import FaqEntry

DOSSIER_TABLES = {"dossier", "dossier_event", "dossier_turn_shown"}
SHOWN_TABLES = {"dossier_turn_shown"}  # from 0011
KEY_TABLES = {"api_key"}
RESOLUTION_TABLES = {"conflict_resolution"}
TABLES = {
    "source",
    "evidence",
    "concept",
    "rule",
    "rule_pointer",
    "kb_meta",
    "faq",
    "topic",
    *DOSSIER_TABLES,
    *KEY_TABLES,
    *RESOLUTION_TABLES,
}
MINI = Path(__file__).parent / "data" / "packs" / "mini"


def _differences(engine: sa.Engine) -> list[object]:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, SQLModel.metadata))


def _tables(engine: sa.Engine) -> set[str]:
    return set(sa.inspect(engine).get_table_names())


def test_upgrade_head_matches_the_models(database_url: str) -> None:
    engine = make_engine(database_url)
    assert current_revision(engine) is None
    migrate(database_url)
    assert current_revision(engine) == migration_head() == "0011"
    assert _tables(engine) == TABLES | {"alembic_version"}
    assert _differences(engine) == []
    assert SqlRepository(engine).version() == 0  # the single version row starts at 0
    engine.dispose()


def test_downgrade_base_removes_everything_and_upgrade_again_works(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(database_url)
    command.downgrade(alembic_config(database_url), "base")
    assert current_revision(engine) is None
    assert _tables(engine) == {"alembic_version"}
    migrate(database_url)
    assert _differences(engine) == []
    engine.dispose()


def test_the_comparison_would_notice_drift(database_url: str) -> None:
    """Guard against a vacuous pass: an index missing from the database shows up as a difference."""
    engine = make_engine(database_url)
    migrate(database_url)
    with engine.begin() as connection:
        connection.execute(sa.text("DROP INDEX ix_rule_concept"))
    assert [diff[0] for diff in _differences(engine) if isinstance(diff, tuple)] == ["add_index"]
    engine.dispose()


def test_rules_stored_before_0002_keep_loading(database_url: str) -> None:
    """Knowledge written at revision 0001 (no stability column) survives the upgrade and loads."""
    mini = verify_packs([MINI])
    command.upgrade(alembic_config(database_url), "0001")
    engine = make_engine(database_url)
    assert "stability" not in {column["name"] for column in sa.inspect(engine).get_columns("rule")}
    _insert_mini(engine, exclude=frozenset({"stability"}))
    command.upgrade(alembic_config(database_url), "head")
    knowledge = SqlRepository(engine).load_knowledge()
    assert {r.id for r in knowledge.rules} == {r.id for r in mini.rules}
    assert all(rule.stability is None for rule in knowledge.rules)
    assert knowledge.version == 1
    engine.dispose()


def _insert_mini(engine: sa.Engine, exclude: frozenset[str] = frozenset()) -> None:
    """The mini pack's rows written straight into the tables, as an older revision stored them."""
    mini = verify_packs([MINI])
    tables = sa.MetaData()
    tables.reflect(engine)
    rows = [
        ("source", [convert.to_source_row(s) for s in mini.sources]),
        ("evidence", [convert.to_evidence_row(e) for e in mini.evidence]),
        ("concept", [convert.to_concept_row(c) for c in mini.concepts]),
        ("rule", [convert.to_rule_row(r) for r in mini.rules]),
    ]
    with engine.begin() as connection:
        for table, records in rows:
            # no pack column before 0006, no conflicts_with before 0010
            dumped = [r.model_dump(exclude=exclude | {"pack", "conflicts_with"}) for r in records]
            connection.execute(tables.tables[table].insert(), dumped)
        pointers = [
            {"rule_id": r.id, "position": i, "evidence_id": p.evidence_id, "quote": p.quote}
            for r in mini.rules
            for i, p in enumerate(r.pointers)
        ]
        connection.execute(tables.tables["rule_pointer"].insert(), pointers)
        connection.execute(sa.text("UPDATE kb_meta SET version = 1"))


def test_knowledge_stored_at_0002_keeps_loading_after_0003(database_url: str) -> None:
    """Rows written at 0002 (no faq table) load after the upgrade, with no FAQ entries."""
    mini = verify_packs([MINI])
    command.upgrade(alembic_config(database_url), "0002")
    engine = make_engine(database_url)
    assert "faq" not in _tables(engine)
    _insert_mini(engine)
    command.upgrade(alembic_config(database_url), "head")
    repository = SqlRepository(engine)
    knowledge = repository.load_knowledge()
    # a rule stored before 0007 has no value_label: it loads without one
    unlabelled = (dataclasses.replace(rule, value_label={}) for rule in mini.rules)
    assert knowledge.rules == tuple(sorted(unlabelled, key=lambda rule: rule.id))
    assert (knowledge.version, knowledge.faqs, repository.counts()["faqs"]) == (1, (), 0)
    faq = FaqEntry("faq-btw", "nl", "Wat is het btw-tarief?", "nl-btw-algemeen-tarief")
    repository.save_knowledge(dataclasses.replace(mini, faqs=(faq,)), ["mini"])
    assert repository.load_knowledge().faqs == (faq,)
    engine.dispose()


def test_downgrade_to_0002_drops_only_the_faq_table(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(database_url)
    _insert_mini(engine)
    command.downgrade(alembic_config(database_url), "0002")
    assert current_revision(engine) == "0002"
    assert _tables(engine) == TABLES - {
        "faq",
        "topic",
    } - DOSSIER_TABLES - KEY_TABLES - RESOLUTION_TABLES | {"alembic_version"}
    with engine.connect() as connection:
        assert connection.scalar(sa.text("SELECT count(*) FROM rule")) == 3
    engine.dispose()


def test_dossiers_stored_at_0004_keep_loading_after_upgrading(database_url: str) -> None:
    """Dossier rows written straight into the 0004 tables load through the repository at head."""
    command.upgrade(alembic_config(database_url), "0004")
    engine = make_engine(database_url)
    tables = sa.MetaData()
    tables.reflect(engine)
    created, answered = (
        datetime(2026, 11, 23, 9, tzinfo=UTC),
        datetime(2026, 11, 23, 10, tzinfo=UTC),
    )
    turn = {
        "question": "Koja je stopa PDV-a?",
        "language": "hr",
        "kind": "ANSWER",
        "topic": "REGULATORY",
        "refusal_reason": None,
        "as_of": "2026-11-23",
        "as_of_origin": "today",
        "route": "pipeline",
        "headline": "Opća stopa PDV-a je 25 %.",
        "rules": ["hr-pdv-opca-stopa-2013"],
        "values": [["hr-pdv-opca-stopa-2013", "25"]],
    }
    with engine.begin() as connection:
        connection.execute(
            tables.tables["dossier"].insert(),
            [
                {
                    "id": "d1",
                    "asker": "ana",
                    "surface": "APP",
                    "language": "hr",
                    "created_at": created,
                    "updated_at": answered,
                    "version": 1,
                    "event_count": 2,
                }
            ],
        )
        connection.execute(
            tables.tables["dossier_event"].insert(),
            [
                {
                    "dossier_id": "d1",
                    "seq": 0,
                    "kind": "added",
                    "at": answered,
                    "payload": {
                        "evidence_id": "ev_law",
                        "title": "Zakon o PDV-u",
                        "authority": "LAW",
                    },
                },
                {"dossier_id": "d1", "seq": 1, "kind": "turn", "at": answered, "payload": turn},
            ],
        )
    command.upgrade(alembic_config(database_url), "head")
    dossiers = SqlDossierRepository(engine)
    dossier = dossiers.get("d1")
    assert dossier is not None
    assert (dossier.version, dossier.created_at, dossier.updated_at) == (1, created, answered)
    assert selection(dossier).selected == (SourceRef("ev_law", "Zakon o PDV-u", "LAW"),)
    (remembered,) = dossier.turns
    assert (remembered.question, remembered.values) == (
        turn["question"],
        (("hr-pdv-opca-stopa-2013", "25"),),
    )
    # 0009 made the header's asker anonymous: the conversation stays reachable by its id
    assert dossier.asker == "anonymous" and dossiers.recent("ana", 5) == ()
    engine.dispose()


def test_downgrade_to_0003_drops_only_the_dossier_tables(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(database_url)
    _insert_mini(engine)
    dossiers = SqlDossierRepository(engine)
    dossiers.create("d1", "ana", "APP", "hr", datetime(2026, 11, 23, tzinfo=UTC))
    command.downgrade(alembic_config(database_url), "0003")
    assert current_revision(engine) == "0003"
    assert _tables(engine) == TABLES - {
        "topic"
    } - DOSSIER_TABLES - KEY_TABLES - RESOLUTION_TABLES | {"alembic_version"}
    with engine.connect() as connection:
        assert connection.scalar(sa.text("SELECT count(*) FROM rule")) == 3
    migrate(database_url)
    assert _differences(engine) == []
    assert SqlDossierRepository(engine).get("d1") is None  # the tables came back empty
    engine.dispose()


def test_knowledge_stored_before_0006_is_claimed_by_its_next_load(database_url: str) -> None:
    """Rows written at 0005 carry no pack; loading the pack claims them, so a later load of the
    pack without a rule removes that rule."""
    command.upgrade(alembic_config(database_url), "0005")
    engine = make_engine(database_url)
    _insert_mini(engine)
    command.upgrade(alembic_config(database_url), "head")
    repository = SqlRepository(engine)
    assert repository.owned(["mini"]) == frozenset()
    load_packs(repository, [MINI])
    assert "rule:nl-btw-verlaagd-tarief-2019" in repository.owned(["mini"])
    smaller = dataclasses.replace(
        verify_packs([MINI]),
        rules=tuple(r for r in verify_packs([MINI]).rules if r.id != "nl-btw-verlaagd-tarief-2019"),
    )
    repository.save_knowledge(smaller, ["mini"])
    assert repository.get_rule("nl-btw-verlaagd-tarief-2019") is None
    engine.dispose()


def test_knowledge_stored_at_0007_keeps_loading_after_0008(database_url: str) -> None:
    """Rows written at 0007 (no topic table) load after the upgrade, with no planning topics;
    the next load of the pack brings them."""
    command.upgrade(alembic_config(database_url), "0007")
    engine = make_engine(database_url)
    assert "topic" not in _tables(engine)
    _insert_mini(engine)
    command.upgrade(alembic_config(database_url), "head")
    repository = SqlRepository(engine)
    knowledge = repository.load_knowledge()
    assert (knowledge.version, knowledge.topics, repository.counts()["topics"]) == (1, (), 0)
    load_packs(repository, [MINI])
    assert [topic.id for topic in repository.load_knowledge().topics] == ["mini_btw"]
    engine.dispose()


def test_downgrade_to_0007_drops_only_the_topic_table(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(database_url)
    load_packs(SqlRepository(engine), [MINI])
    command.downgrade(alembic_config(database_url), "0007")
    assert current_revision(engine) == "0007"
    assert _tables(engine) == TABLES - {"topic"} - KEY_TABLES - RESOLUTION_TABLES - SHOWN_TABLES | {
        "alembic_version"
    }
    with engine.connect() as connection:
        assert connection.scalar(sa.text("SELECT count(*) FROM rule")) == 3
    migrate(database_url)
    assert _differences(engine) == []
    assert SqlRepository(engine).load_knowledge().topics == ()  # the table came back empty
    engine.dispose()


RAW_ASKERS = ("ana@example.com", "12345678903", "Ana Horvat")


def test_0009_rewrites_header_askers_to_anonymous_and_loses_no_conversation(
    database_url: str,
) -> None:
    """Askers stored from the old X-Navod-Asker header (an e-mail, an OIB, a name) leave the
    database; every conversation stays, reachable by its id as an anonymous capability."""
    command.upgrade(alembic_config(database_url), "0008")
    engine = make_engine(database_url)
    moment = datetime(2026, 11, 24, 9, tzinfo=UTC)
    before = SqlDossierRepository(engine)
    ids = [f"dos_{n:032x}" for n in range(len(RAW_ASKERS) + 1)]
    for dossier_id, asker in zip(ids, (*RAW_ASKERS, "anonymous"), strict=True):
        before.create(dossier_id, asker, "APP", "hr", moment)
    command.upgrade(alembic_config(database_url), "0009")
    with engine.connect() as connection:
        askers = connection.execute(sa.text("SELECT asker FROM dossier")).scalars().all()
        dumped = " ".join(
            str(row)
            for table in ("dossier", "dossier_event")
            for row in connection.execute(sa.text(f"SELECT * FROM {table}")).all()
        )
    assert sorted(askers) == ["anonymous"] * len(ids)
    assert not [raw for raw in RAW_ASKERS if raw in dumped]
    after = SqlDossierRepository(engine)
    assert all((found := after.get(i)) is not None and found.asker == "anonymous" for i in ids)
    engine.dispose()


def test_downgrade_to_0008_drops_only_the_key_table(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(database_url)
    key, _secret = new_key("ci", datetime(2026, 11, 25, tzinfo=UTC))
    SqlKeyRepository(engine).add(key)
    SqlDossierRepository(engine).create(
        "d1", key.id, "APP", "hr", datetime(2026, 11, 25, tzinfo=UTC)
    )
    command.downgrade(alembic_config(database_url), "0008")
    assert _tables(engine) == TABLES - KEY_TABLES - RESOLUTION_TABLES - SHOWN_TABLES | {
        "alembic_version"
    }
    assert SqlDossierRepository(engine).get("d1") is not None
    migrate(database_url)
    assert _differences(engine) == [] and SqlKeyRepository(engine).all() == ()
    engine.dispose()


def test_knowledge_stored_at_0009_keeps_loading_after_0010(database_url: str) -> None:
    """Rows written at 0009 (no conflicts_with, no resolution table) load after the upgrade with
    no declared conflicts and no resolutions; the next load of the pack brings them."""
    command.upgrade(alembic_config(database_url), "0009")
    engine = make_engine(database_url)
    assert "conflict_resolution" not in _tables(engine)
    _insert_mini(engine)
    command.upgrade(alembic_config(database_url), "head")
    repository = SqlRepository(engine)
    knowledge = repository.load_knowledge()
    assert all(rule.conflicts_with == () for rule in knowledge.rules)
    assert (knowledge.resolutions, repository.counts()["resolutions"]) == ((), 0)
    load_packs(repository, [MINI])
    assert {rule.id for rule in repository.load_knowledge().rules} == {
        rule.id for rule in verify_packs([MINI]).rules
    }
    engine.dispose()


def test_downgrade_to_0009_drops_only_the_resolution_table_and_column(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(database_url)
    load_packs(SqlRepository(engine), [MINI])
    command.downgrade(alembic_config(database_url), "0009")
    assert current_revision(engine) == "0009"
    assert _tables(engine) == TABLES - RESOLUTION_TABLES - SHOWN_TABLES | {"alembic_version"}
    columns = {column["name"] for column in sa.inspect(engine).get_columns("rule")}
    assert "conflicts_with" not in columns
    with engine.connect() as connection:
        assert connection.scalar(sa.text("SELECT count(*) FROM rule")) == 3
    migrate(database_url)
    assert _differences(engine) == []
    engine.dispose()
