"""Issue 25.5: the history database coming back is a line of the log, as its going was."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest

from server.history import DealWriter, migrate, open_engine

from .databases import sqlite_url
from .golden import finished_deals


async def test_the_database_back_is_said_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    engine = open_engine(sqlite_url(tmp_path), busy_seconds=0.05)
    await migrate(engine)
    deals = finished_deals()
    writer = DealWriter(engine, retry_max=0.2)
    writer.start()
    try:
        with caplog.at_level(logging.INFO, logger="tarot.history"):
            blocker = sqlite3.connect(tmp_path / "db" / "history.sqlite3", isolation_level=None)
            blocker.execute("BEGIN EXCLUSIVE")
            for deal in deals[:3]:
                writer.submit(deal)
            async with asyncio.timeout(30):
                while writer.failures < 3:
                    await asyncio.sleep(0.02)
            blocker.execute("COMMIT")
            blocker.close()
            async with asyncio.timeout(30):
                await writer.flush()
    finally:
        await writer.close()
        await engine.dispose()
    said = [r.getMessage() for r in caplog.records if r.name == "tarot.history"]
    assert sum("deals wait in the outbox" in line for line in said) == 1, said
    back = [line for line in said if "the database answers again after" in line]
    assert len(back) == 1, said
