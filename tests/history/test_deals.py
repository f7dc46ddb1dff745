"""Finished deals are stored exactly once per (table, deal), whatever the number of writers."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from server.history import BadRecord, open_engine, store_deal, stored_deals
from server.history.deals import count_rows
from tests.records.test_records import comparable

from .golden import SEATS, START, finished_deals, sheet

WRITERS = 6


async def test_concurrent_writers_store_each_deal_once(engine: AsyncEngine, db_url: str) -> None:
    """Six writers, each with its own engine (as six nodes would), race on every deal.

    One deal at a time: racing all deals at once opened 60 PostgreSQL connections
    (ten per engine), and beside the other test process that ran the server out
    of connections ("too many clients already", CI on 314e492). The race that
    matters, six writers on the same deal at the same moment, is unchanged.
    """
    deals = finished_deals()
    engines = [open_engine(db_url) for _ in range(WRITERS)]
    results: list[bool] = []
    try:
        for deal in deals:
            results += await asyncio.gather(*(store_deal(e, deal) for e in engines))
    finally:
        for e in engines:
            await e.dispose()
    assert sum(results) == len(deals)  # exactly one writer stored each deal
    assert await count_rows(engine) == {"deals": len(deals), "seats": 4 * len(deals)}
    assert [(d.table_id, d.deal_number) async for d in stored_deals(engine)] == [
        (d.table_id, d.deal_number) for d in deals
    ]


async def test_a_deal_written_again_is_not_changed(engine: AsyncEngine) -> None:
    first = finished_deals()[0]
    assert await store_deal(engine, first)
    other = dataclasses.replace(finished_deals()[1], deal_number=first.deal_number)
    assert not await store_deal(engine, other)  # the first write stays
    [stored] = [d async for d in stored_deals(engine)]
    assert stored.record == first.record and stored.sheet == first.sheet


async def test_stored_sheets_are_the_hand_made_ones(engine: AsyncEngine) -> None:
    from .golden import NAMES

    for deal in finished_deals():
        await store_deal(engine, deal)
    stored = [d async for d in stored_deals(engine)]
    for name, kept in zip(NAMES, stored, strict=True):
        for key, value in sheet(name).items():
            assert comparable(key, kept.sheet[key]) == comparable(key, value), (name, key)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"record": {"format": "tarot-record/1"}}, "not a valid tarot-record/1"),
        ({"sheet": {"status": "played", "scores": [0, 0, 0, 0]}}, "sheet is not the record's"),
        ({"table_id": ""}, "table id"),
        ({"table_id": "x" * 65}, "table id"),
        ({"deal_number": -1}, "deal number"),
        ({"seats": SEATS[:3]}, "4 seats"),
    ],
)
async def test_a_bad_deal_is_refused_and_changes_nothing(
    engine: AsyncEngine, change: dict[str, object], why: str
) -> None:
    deal = dataclasses.replace(finished_deals()[0], **change)  # type: ignore[arg-type]
    with pytest.raises(BadRecord, match=why) as caught:
        await store_deal(engine, deal)
    assert caught.value.code == "bad_record"
    assert await count_rows(engine) == {"deals": 0, "seats": 0}


async def test_export_filters_by_player_and_date(engine: AsyncEngine) -> None:
    deals = finished_deals()
    for deal in deals:
        await store_deal(engine, deal)
    alone = dataclasses.replace(deals[0], table_id="t-other", seats=())
    await store_deal(engine, alone)
    assert len([d async for d in stored_deals(engine, player="anna")]) == 0  # guests: exact
    assert len([d async for d in stored_deals(engine, player="Anna")]) == len(deals)
    assert len([d async for d in stored_deals(engine, player="Nobody")]) == 0
    later = START.replace(minute=5)
    assert [d.deal_number async for d in stored_deals(engine, since=later)] == list(
        range(5, len(deals))
    )
