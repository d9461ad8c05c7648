"""Database engines and migrations: one place that knows SQLite from PostgreSQL.

The same alembic revisions run on both backends. `migrate` finds alembic.ini at the repository
root relative to this file (the app is installed editable), so it works from any directory.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from engine.errors import ConfigError
from engine.store.outage import translates_outage

REPO_ROOT = Path(__file__).resolve().parents[2]
# How long an SQLite writer waits for the database's one write lock before failing: turns of
# one conversation queue on it (engine/store/dossiers/sql.py), each holding it for one answer.
SQLITE_BUSY_SECONDS = 15.0
ALEMBIC_INI = REPO_ROOT / "alembic.ini"
CONNECT_TIMEOUT_SECONDS = 5


def database_url_default() -> str:
    """The database used when none is configured: a SQLite file under ./data."""
    return "sqlite:///./data/navod.db"


def as_utc(moment: datetime) -> datetime:
    """The same moment in UTC; naive values (SQLite hands those back) are taken as UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def normalise_url(url: str) -> str:
    """Use the psycopg 3 driver for plain postgres URLs (SQLAlchemy would pick psycopg2)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str) -> sa.Engine:
    """An engine for `url`. SQLite gets foreign keys and WAL; its parent folder is created."""
    parsed = sa.make_url(normalise_url(url))
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        _ensure_sqlite_folder(parsed.database)
        engine = sa.create_engine(parsed, connect_args={"timeout": SQLITE_BUSY_SECONDS})
        sa.event.listen(engine, "connect", _configure_sqlite_connection)
        return engine
    if backend == "postgresql":
        # A host that stops answering (rather than refusing) would hold a connect for the OS's
        # TCP timeout, minutes; bounded, the request gets its 503 and the pool tries again.
        connect = {"connect_timeout": CONNECT_TIMEOUT_SECONDS}
        return sa.create_engine(parsed, pool_pre_ping=True, connect_args=connect)
    raise ConfigError(
        f"DATABASE_URL: unsupported database {backend!r}; use sqlite:///path or postgresql://..."
    )


def _ensure_sqlite_folder(database: str | None) -> None:
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).parent.mkdir(parents=True, exist_ok=True)


def _configure_sqlite_connection(dbapi_connection: Any, _record: Any) -> None:
    # SQLite leaves foreign keys off unless asked on every connection; WAL lets readers
    # keep reading while a pack load writes.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


def alembic_config(url: str) -> Config:
    """The project's alembic configuration pointed at `url`."""
    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", str(REPO_ROOT / "migrations"))
    # configparser treats % as interpolation; URLs may hold %-escapes.
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def migrate(url: str) -> None:
    """Upgrade the database at `url` to the newest schema revision."""
    command.upgrade(alembic_config(url), "head")


def migration_head() -> str:
    """The newest revision id shipped with the code."""
    head = ScriptDirectory.from_config(alembic_config(database_url_default())).get_current_head()
    if head is None:
        raise ConfigError("migrations/versions holds no revision")
    return head


@translates_outage("schema.current_revision")
def current_revision(engine: sa.Engine) -> str | None:
    """The revision the database is at, or None for an empty (unmigrated) database."""
    with engine.connect() as connection:
        revision: str | None = MigrationContext.configure(connection).get_current_revision()
        return revision
