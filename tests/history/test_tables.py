"""Finished tables (their series and totals) are stored once, whoever writes them."""

from __future__ import annotations

import asyncio
import dataclasses

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from server.history import FinishedTable, open_engine, store_table
from server.history.schema import tables

from .golden import START, finished_deals

TABLE = FinishedTable(
    table_id="t-golden",
    deals_played=3,
    series=[deal.sheet for deal in finished_deals()[:3]],
    totals=[-30.5, 10, 10.5, 10],
    started_at=START,
    finished_at=START.replace(hour=13),
)


async def test_a_finished_table_is_stored_once(engine: AsyncEngine, db_url: str) -> None:
    engines = [open_engine(db_url) for _ in range(4)]
    try:
        results = await asyncio.gather(*(store_table(e, TABLE) for e in engines))
    finally:
        for e in engines:
            await e.dispose()
    assert sorted(results) == [False, False, False, True]
    assert not await store_table(engine, dataclasses.replace(TABLE, totals=[0, 0, 0, 0]))
    async with engine.connect() as conn:
        [row] = (await conn.execute(select(tables))).all()
    assert row.id == "t-golden" and row.deals_played == 3
    assert row.totals == [-30.5, 10, 10.5, 10] and row.series == TABLE.series
