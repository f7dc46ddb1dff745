"""Migration 0010: the deals stored before it are named by their event from its results.

A deal of a duplicate event must be hidden from the moment it is stored; from 0010 the
deal writer names its event with it (``deals.event_id``, ``event_deal``), and the deals
stored before are named from the results the node recorded (only those: every other
deal keeps NULLs, and is not written at all)."""

from __future__ import annotations

from sqlalchemy import insert, select

from server.history import enter_event, migrate, open_engine, store_deal
from server.history.schema import deals, duplicate_results

from .duplicate_helpers import DURING, make_accounts, make_event
from .golden import finished_deals


async def test_deals_stored_before_0010_are_named_by_their_recorded_results(db_url: str) -> None:
    engine = open_engine(db_url)
    try:
        await migrate(engine, "0009")
        event_id = await make_event(engine, deals=5)
        ids = await make_accounts(engine, ["Ann"])
        entry = await enter_event(engine, event_id, account_id=ids["Ann"], now=DURING)
        stored = finished_deals("old")[:3]
        for deal in stored:
            await store_deal(engine, deal)
        result = {
            "entry_id": entry,
            "deal_index": 4,
            "event_id": event_id,
            "seat": 0,
            "table_id": "old",
            "deal_number": 1,
            "contract": None,
            "score": 0.0,
            "played_at": DURING,
        }
        async with engine.begin() as conn:
            await conn.execute(insert(duplicate_results).values(result))
        await migrate(engine)
        async with engine.connect() as conn:
            rows = await conn.execute(
                select(deals.c.deal_number, deals.c.event_id, deals.c.event_deal)
                .where(deals.c.table_id == "old")
                .order_by(deals.c.deal_number)
            )
            named = [tuple(row) for row in rows]
        assert named == [(0, None, None), (1, event_id, 4), (2, None, None)]
    finally:
        await engine.dispose()
