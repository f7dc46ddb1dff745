"""Issue 25.3: nodes started together on one empty history migrate it one at a time (before,
two SQLite nodes both created the tables: "table accounts already exists")."""

from __future__ import annotations

import asyncio
import logging

import pytest

from server.history import migrate, open_engine
from server.history.database import current_revision


async def test_nodes_migrating_at_once_wait_for_each_other(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    engines = [open_engine(db_url) for _ in range(4)]
    try:
        with caplog.at_level(logging.INFO, logger="tarot.history"):
            await asyncio.gather(*(migrate(engine) for engine in engines))
        revisions = {await current_revision(engine) for engine in engines}
        assert len(revisions) == 1 and None not in revisions
        migrated = [r for r in caplog.records if r.getMessage().startswith("migrated")]
        assert len(migrated) == 1, migrated  # the others found it done
    finally:
        for engine in engines:
            await engine.dispose()
