"""Each history test runs against a real SQLite file and a real PostgreSQL database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from server.history import migrate, open_engine

from .databases import postgres_database, sqlite_url

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
]


@pytest.fixture(params=BACKENDS)
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The URL of an empty database of this test's own."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path)
        return
    async with postgres_database() as url:
        yield url


@pytest.fixture
async def engine(db_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on a database migrated to the newest schema."""
    engine = open_engine(db_url)
    await migrate(engine)
    try:
        yield engine
    finally:
        await engine.dispose()
