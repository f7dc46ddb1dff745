"""Real databases for the history tests: a SQLite file, a PostgreSQL database of the run's own.

``TAROT_TEST_POSTGRES`` names the PostgreSQL server's admin URL (tasks.py
starts one on 127.0.0.1:5432 when none answers). Each test gets a database of
its own, ``tarot_test_<random>``, dropped after it.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy.engine import make_url

ADMIN_URL = os.environ.get(
    "TAROT_TEST_POSTGRES", "postgresql://postgres:postgres@127.0.0.1:5432/postgres"
)


@asynccontextmanager
async def postgres_database(admin_url: str = ADMIN_URL) -> AsyncIterator[str]:
    """A new, empty PostgreSQL database's URL; dropped (connections and all) after."""
    name = f"tarot_test_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(admin_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    finally:
        admin = await asyncpg.connect(admin_url)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


def sqlite_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'db' / 'history.sqlite3'}"
