"""The deal writer: deals queued together go in one transaction; the database goes down
mid-table, then comes back: every finished deal is stored."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from server.history import DealWriter, migrate, open_engine, stored_deals
from server.history.deals import Occupant, count_rows
from server.history.schema import rated_deals

from .databases import postgres_database, sqlite_url
from .golden import finished_deals
from .own_postgres import OwnPostgres


async def _wait_for_failures(writer: DealWriter, at_least: int) -> None:
    async with asyncio.timeout(30):
        while writer.failures < at_least:
            await asyncio.sleep(0.02)


async def test_a_sqlite_file_locked_away_then_back_loses_no_deal(tmp_path: Path) -> None:
    """Another process holds the file (a backup's exclusive lock) longer than writers wait."""
    url = sqlite_url(tmp_path)
    engine = open_engine(url, busy_seconds=0.05)
    await migrate(engine)
    deals = finished_deals()
    writer = DealWriter(engine, retry_max=0.2)
    writer.start()
    try:
        for deal in deals[:3]:
            writer.submit(deal)
        await writer.flush()
        blocker = sqlite3.connect(tmp_path / "db" / "history.sqlite3", isolation_level=None)
        blocker.execute("BEGIN EXCLUSIVE")
        for deal in deals[3:]:
            writer.submit(deal)
        await _wait_for_failures(writer, 3)
        assert len(writer) == len(deals) - 3  # waiting in the outbox, in order
        blocker.execute("COMMIT")
        blocker.close()
        async with asyncio.timeout(30):
            await writer.flush()
    finally:
        await writer.close()
    assert writer.stored == len(deals)
    assert await count_rows(engine) == {"deals": len(deals), "seats": 4 * len(deals)}
    assert [d.deal_number async for d in stored_deals(engine)] == list(range(len(deals)))
    await engine.dispose()


async def test_deals_queued_together_are_stored_in_one_transaction(engine: AsyncEngine) -> None:
    """Each once: the same deals again change nothing. A transaction per deal and per rating
    was most of what the history cost a node under ``tarot bench server``. No account
    played these (guests and AI): they are marked never rated as they are stored, and no
    rating transaction follows (one on SQLite, one a deal on PostgreSQL, when one did)."""
    deals = finished_deals()
    commits: list[None] = []
    event.listen(engine.sync_engine, "commit", lambda _conn: commits.append(None))
    writer = DealWriter(engine)
    writer.start()
    try:
        for deal in [*deals, *deals]:
            writer.submit(deal)
        await writer.flush()
    finally:
        await writer.close()
    assert not any(who.account_id for deal in deals for who in deal.seats)
    assert len(deals) > 2 and len(commits) == 1
    assert writer.stored == len(deals)
    assert await count_rows(engine) == {"deals": len(deals), "seats": 4 * len(deals)}
    async with engine.connect() as conn:
        marked = (await conn.execute(rated_deals.select())).all()
    assert len(marked) == len(deals)


async def test_a_deal_the_database_refuses_is_dropped_alone_and_the_writer_goes_on(
    engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    """A seat naming an account the database does not hold (a foreign key) is refused for
    what it is, not for an outage: before, the writer's task died of it, and every later
    deal waited in the outbox for ever."""
    deals = finished_deals("t-refused")
    refused = dataclasses.replace(deals[2], seats=(Occupant(account_id=999_999),) * 4)
    writer = DealWriter(engine, retry_max=0.2)
    writer.start()
    try:
        for deal in [*deals[:2], refused, *deals[3:]]:  # one batch, the refused deal inside
            writer.submit(deal)
        async with asyncio.timeout(30):
            await writer.flush()
        writer.submit(deals[2])  # the next deals are still written
        async with asyncio.timeout(30):
            await writer.flush()
    finally:
        await writer.close()
    assert "deal 2 of table t-refused dropped, the database refuses it" in caplog.text
    numbers = [d.deal_number async for d in stored_deals(engine)]
    assert numbers == list(range(len(deals)))
    assert writer.stored == len(deals)


async def test_two_writers_with_the_same_deals_in_opposite_orders_store_each_once(
    engine: AsyncEngine,
) -> None:
    """Two nodes that saw the same deals end, each writing them in one transaction: on
    PostgreSQL the second waits for the first's rows, in one order (no deadlock)."""
    deals = finished_deals()
    writers = [DealWriter(engine), DealWriter(engine)]
    for writer, order in zip(writers, (deals, deals[::-1]), strict=True):
        for deal in order:
            writer.submit(deal)
    try:
        for writer in writers:
            writer.start()
        async with asyncio.timeout(30):
            await asyncio.gather(*(writer.flush() for writer in writers))
    finally:
        for writer in writers:
            await writer.close()
    assert sum(writer.stored for writer in writers) == len(deals)
    assert await count_rows(engine) == {"deals": len(deals), "seats": 4 * len(deals)}


@pytest.fixture
async def own_postgres() -> AsyncIterator[OwnPostgres]:
    server = OwnPostgres()
    try:
        await asyncio.to_thread(server.create)
        await asyncio.to_thread(server.start)
        yield server
    finally:
        if await asyncio.to_thread(server.is_running):
            await asyncio.to_thread(server.stop)
        server.remove()


@pytest.mark.postgres
async def test_postgresql_stopped_then_started_loses_no_deal(own_postgres: OwnPostgres) -> None:
    async with postgres_database(own_postgres.admin_url) as url:
        engine = open_engine(url)
        await migrate(engine)
        deals = finished_deals()
        writer = DealWriter(engine, retry_max=0.2)
        writer.start()
        try:
            for deal in deals[:3]:
                writer.submit(deal)
            await writer.flush()
            await asyncio.to_thread(own_postgres.stop)  # pooled connections die with it
            for deal in deals[3:]:
                writer.submit(deal)
            await _wait_for_failures(writer, 3)
            assert len(writer) == len(deals) - 3
            await asyncio.to_thread(own_postgres.start)
            async with asyncio.timeout(30):
                await writer.flush()
        finally:
            await writer.close()
        assert writer.stored == len(deals)
        assert await count_rows(engine) == {"deals": len(deals), "seats": 4 * len(deals)}
        await engine.dispose()
