"""Shared pytest fixtures.

Database fixtures: tests run on a fresh SQLite file by default. When the DATABASE_URL
environment variable points at PostgreSQL (e.g. postgresql://postgres@127.0.0.1:5432/test), each
test instead gets its own throw-away schema in that database (via search_path), so tests never
see each other's rows and leave nothing behind.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import settings

from engine.store.db import make_engine, migrate
from engine.store.dossiers.memory import MemoryDossierRepository
from engine.store.dossiers.repository import DossierRepository
from engine.store.dossiers.sql import SqlDossierRepository
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.repository import KnowledgeRepository
from engine.store.knowledge.sql import SqlRepository

# `make fuzz` (HYPOTHESIS_PROFILE=fuzz): the redaction properties with many more examples, drawn
# at random rather than the same every run (tests/test_redaction_properties.py scales by it).
settings.register_profile("fuzz", max_examples=2_000, derandomize=False, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# TestClient's requests say `Host: testserver`, which the apps the tests build must answer to;
# the default (api/settings.py) is only the bound address, localhost and 127.0.0.1.
TEST_HOSTS = "testserver,localhost,127.0.0.1"


@pytest.fixture(autouse=True, scope="session")
def _allowed_hosts() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NAVOD_ALLOWED_HOSTS", TEST_HOSTS)
        yield


def _postgres_base_url() -> str | None:
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgresql", "postgres://")) else None


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """An empty database: a SQLite file in tmp_path, or a fresh schema in $DATABASE_URL."""
    base = _postgres_base_url()
    if base is None:
        yield f"sqlite:///{tmp_path / 'navod.db'}"
        return
    schema = f"test_{uuid.uuid4().hex[:12]}"
    admin = make_engine(base)
    with admin.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    url = sa.make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def migrated_engine(database_url: str) -> Iterator[sa.Engine]:
    """An engine on `database_url` after `alembic upgrade head`."""
    migrate(database_url)
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def sql_repo(migrated_engine: sa.Engine) -> SqlRepository:
    return SqlRepository(migrated_engine)


@pytest.fixture
def memory_repo() -> MemoryRepository:
    return MemoryRepository()


@pytest.fixture(params=["memory", pytest.param("sql", marks=pytest.mark.db)])
def repo(request: pytest.FixtureRequest) -> KnowledgeRepository:
    """Each test using this runs twice: on the in-memory fake and on the SQL store."""
    chosen: KnowledgeRepository = request.getfixturevalue(f"{request.param}_repo")
    return chosen


@pytest.fixture(params=["memory", pytest.param("sql", marks=pytest.mark.db)])
def dossier_store(request: pytest.FixtureRequest) -> DossierRepository:
    """Each test using this runs twice: on the in-memory fake and on the SQL store."""
    if request.param == "memory":
        return MemoryDossierRepository()
    return SqlDossierRepository(request.getfixturevalue("migrated_engine"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that opens a database is a `db` test: `make test` reruns those on PostgreSQL."""
    for item in items:
        if "database_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.db)
