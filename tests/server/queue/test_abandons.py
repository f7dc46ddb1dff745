"""Leaving a rated quick-play table mid-series (server/node/quickplay.py ``seen``): the
account is charged one abandon however many nodes see the change, and its next queue
waits, longer at each abandon; casual tables, guests and a finished series charge none."""

from __future__ import annotations

import asyncio

from server.node.build import build_node
from server.node.matchmaker import quick_options
from server.node.quickplay import QuickPlay, penalty_wait_ms
from server.queue.settings import QueueSettings
from server.settings import Settings
from server.table.data import SeatData, TableData

SETTINGS = QueueSettings()


def table(mode: str, played: int = 0, deals: int = 3) -> TableData:
    seats = [SeatData(occupant="human", name=f"P{i}", account_id=10 + i) for i in range(3)]
    seats.append(SeatData(occupant="human", name="Guest"))
    return TableData(
        table_id="t1",
        options=quick_options(deals, mode, SETTINGS),
        status="playing",
        seats=seats,
        played=played,
    )


def left(data: TableData, seat: int) -> TableData:
    return data.model_copy(update={"seats": data.with_seat(seat, occupant="ai", account_id=None)})


async def charged(quickplay: QuickPlay, before: TableData, after: TableData) -> None:
    quickplay.seen(before, None, after, None)
    for _ in range(100):
        if not quickplay._charging:
            return
        await asyncio.sleep(0.01)


async def test_an_abandon_is_charged_once_and_the_wait_doubles() -> None:
    node = await build_node(Settings(port=0))
    quickplay = node.quickplay
    before = table("rated")
    await charged(quickplay, before, left(before, 1))
    await charged(quickplay, before, left(before, 1))  # another node saw the same change
    penalty = await quickplay.tickets.penalty("account:11")
    assert penalty.abandons == 1
    again = table("rated").model_copy(update={"table_id": "t2"})
    await charged(quickplay, again, left(again, 1))
    assert (await quickplay.tickets.penalty("account:11")).abandons == 2
    assert penalty_wait_ms(1, SETTINGS) == 60_000 and penalty_wait_ms(2, SETTINGS) == 120_000
    assert penalty_wait_ms(10, SETTINGS) == 1_800_000  # the most


async def test_no_abandon_at_casual_tables_for_guests_or_after_the_series() -> None:
    node = await build_node(Settings(port=0))
    quickplay = node.quickplay
    casual = table("casual")
    await charged(quickplay, casual, left(casual, 0))
    assert (await quickplay.tickets.penalty("account:10")).abandons == 0
    rated = table("rated")
    await charged(quickplay, rated, left(rated, 3))  # the guest
    over = table("rated", played=3)
    await charged(quickplay, over, left(over, 2))
    assert (await quickplay.tickets.penalty("account:12")).abandons == 0
    assert not quickplay._charging


def test_a_casual_quick_play_table_hands_its_deals_over_unrated() -> None:
    """server/node/archive.py: casual quick play's deals are stored never rated."""
    from server.node.archive import may_rate

    assert not may_rate(table("casual"))
    assert may_rate(table("rated"))
