"""Which database holds the history, and how to reach it: URLs, engines, migrations.

SQLite (a file, through aiosqlite) is the default, so one machine keeps its
history with nothing else installed; PostgreSQL (through asyncpg) is the
production engine. A URL is checked before anything connects: ``sqlite:///PATH``
or a bare path, ``postgresql://...``; the async drivers are filled in here.

Each SQLite connection gets foreign keys, WAL (readers do not block the
writer; ``synchronous=NORMAL``, WAL's usual setting: a commit survives the
process being killed, only a power cut can lose the last ones) and a busy
timeout (several writers wait for each other instead of failing at once; one
that waits longer counts as the database being unavailable). Connections are
pooled: with a connection per write, closing the last one checkpoints the WAL
each time, and a write cost ~20 ms instead of ~2.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError, DatabaseError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from .errors import BadDatabaseUrl, NotADatabase
from .guard import reachable

log = logging.getLogger("tarot.history")
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg"}
SQLITE_BUSY_SECONDS = 30
PG_MIGRATION_LOCK = 0x7A207  # the advisory lock key nodes migrating PostgreSQL take


def default_url() -> str:
    """``TAROT_DB_URL``, else a SQLite file in the user's data folder."""
    if named := os.environ.get("TAROT_DB_URL"):
        return named
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return f"sqlite:///{base / 'cardavia-tarot' / 'history.sqlite3'}"


# Said beside the default file: it is in the user's home, not in the checkout, so that
# every checkout's tarot serve (and every test that runs one without a URL) writes there.
SHARED_HISTORY = "the default, shared by every checkout; --db PATH for another"


def history_place(url: str | None) -> tuple[str, str | None]:
    """Where the history is, as ``tarot serve`` says it at start: a SQLite database's file or
    another database's URL without its password; and a note when it is the default file.

    >>> history_place("sqlite:////var/lib/tarot/history.db")
    ('/var/lib/tarot/history.db', None)
    >>> history_place("postgresql://tarot:secret@db:5432/tarot")
    ('postgresql://tarot:***@db:5432/tarot', None)
    """
    named = url or os.environ.get("TAROT_DB_URL")
    parsed = database_url(named or default_url())
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        where = str(parsed.database)
    else:
        where = parsed.set(drivername=backend).render_as_string(hide_password=True)
    return where, None if named else SHARED_HISTORY


def database_url(text: str) -> URL:
    """The async SQLAlchemy URL of ``text``, or ``BadDatabaseUrl`` saying why.

    >>> database_url("sqlite:////var/lib/tarot/history.db").drivername
    'sqlite+aiosqlite'
    >>> database_url("mysql://db/tarot")
    Traceback (most recent call last):
    ...
    server.history.errors.BadDatabaseUrl: the database URL must be sqlite:///PATH or \
postgresql://..., not 'mysql://db/tarot'
    """
    if "://" not in text and text.strip():
        text = f"sqlite:///{Path(text).expanduser()}"
    try:
        url = make_url(text)
    except (ArgumentError, ValueError) as e:
        raise BadDatabaseUrl(f"the database URL {_shown(text)} cannot be read: {e}") from None
    backend = url.get_backend_name()
    if backend not in DRIVERS or url.drivername not in (backend, DRIVERS[backend]):
        raise BadDatabaseUrl(
            f"the database URL must be sqlite:///PATH or postgresql://..., not {_shown(text)}"
        )
    if backend == "sqlite" and url.database in (None, "", ":memory:"):
        raise BadDatabaseUrl("the SQLite history needs a file: sqlite:///PATH")
    return url.set(drivername=DRIVERS[backend])


def _shown(text: str) -> str:
    """The URL as an error may show it: without its password."""
    try:
        return repr(make_url(text).render_as_string(hide_password=True))
    except (ArgumentError, ValueError):
        return repr(re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", text)[:120])


def open_engine(url: str | URL, *, busy_seconds: float = SQLITE_BUSY_SECONDS) -> AsyncEngine:
    """An engine for ``url`` (checked; a SQLite file's folder is created).

    ``busy_seconds``: how long a SQLite write waits for another writer's lock.
    """
    url = database_url(url) if isinstance(url, str) else url
    if url.get_backend_name() == "sqlite":
        assert url.database is not None
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, pool_pre_ping=True)

        def pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            for pragma in (
                "foreign_keys=ON",
                "journal_mode=WAL",
                "synchronous=NORMAL",
                f"busy_timeout={round(busy_seconds * 1000)}",
            ):
                cursor.execute(f"PRAGMA {pragma}")
            cursor.close()

        event.listen(engine.sync_engine, "connect", pragmas)
        return engine
    return create_async_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration, built in code (no alembic.ini to find)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


async def migrate(engine: AsyncEngine, revision: str = "head") -> None:
    """Upgrade the database to ``revision`` (creating the tables of an empty one); one log
    line says what changed, if anything (Alembic's own lines are quiet: ``server.logs``).

    One node at a time: nodes started together wait for each other's migration
    (``migration_lock``) instead of both creating the tables ("table accounts already
    exists"). A file that is not a database is ``NotADatabase``."""
    try:
        async with migration_lock(engine), reachable(), engine.begin() as connection:
            before, after = await connection.run_sync(_upgrade, revision)
    except DatabaseError as e:  # not an outage (``reachable`` took those)
        url = engine.url
        named = repr(url.database) if url.get_backend_name() == "sqlite" else _shown(str(url))
        raise NotADatabase(
            f"the history database {named} cannot be used: {str(e.orig or e).splitlines()[0]}"
        ) from None
    if after != before:
        log.info("migrated the history database from %s to %s", before or "empty", after)


@asynccontextmanager
async def migration_lock(engine: AsyncEngine) -> AsyncIterator[None]:
    """Hold the history's migration lock: a file beside a SQLite database (``PATH.lock``,
    ``flock``: released if the process dies); PostgreSQL takes an advisory lock in the
    migration's own transaction (``_upgrade``)."""
    database = engine.url.database
    if engine.url.get_backend_name() != "sqlite" or not database:
        yield
        return
    descriptor = os.open(f"{database}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        await asyncio.to_thread(fcntl.flock, descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def _upgrade(connection: Connection, revision: str) -> tuple[str | None, str | None]:
    """The revision before and after upgrading to ``revision``, under the lock."""
    from alembic.runtime.migration import MigrationContext

    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({PG_MIGRATION_LOCK})")
    before = MigrationContext.configure(connection).get_current_revision()
    command.upgrade(alembic_config(connection), revision)
    return before, MigrationContext.configure(connection).get_current_revision()


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at (None: never migrated)."""
    from alembic.runtime.migration import MigrationContext

    async with reachable(), engine.connect() as connection:
        return await connection.run_sync(
            lambda sync: MigrationContext.configure(sync).get_current_revision()
        )
