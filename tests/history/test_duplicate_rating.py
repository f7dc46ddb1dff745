"""The duplicate rating in the database (SQLite and PostgreSQL): moved once, as an event
is scored, from each account's rating before it; each change kept."""

from __future__ import annotations

import math
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from server.history import EventResult, close_event, enter_event, record_result
from server.history.duplicate_rating import duplicate_ratings_board
from server.history.schema import duplicate_rating_changes
from tests.duplicate.worked_example import SCORES

from .duplicate_helpers import AFTER, CONTRACTS, DURING, make_event, play_worked_example


async def test_two_events_move_the_ratings_from_where_the_first_left_them(
    engine: AsyncEngine,
) -> None:
    first = await make_event(engine)
    ids, _ = await play_worked_example(engine, first)
    await close_event(engine, first, now=AFTER)
    assert await close_event(engine, first, now=AFTER) is None  # scored, and rated, once
    board = {r.name: r for r in await duplicate_ratings_board(engine, 10)}
    # All at 1500: 10 x (share of games won - 0.5) a deal played. Ann: deal 0 5/6, deal 1
    # 0, deal 2 2/4: (5/6 - 1/2 + 0 - 1/2 + 1/2 - 1/2) x 10 = -1.67; Dan played two deals:
    # (2/6 - 1/2 + 1 - 1/2) x 10 = +3.33 (his unplayed deal is no game).
    assert math.isclose(board["Ann"].rating, 1500 + 10 * (5 / 6 - 1 / 2 - 1 / 2 + 0))
    assert math.isclose(board["Dan"].rating, 1500 + 10 * (2 / 6 - 1 / 2 + 1 / 2))
    assert math.isclose(sum(r.rating - 1500 for r in board.values()), 0, abs_tol=1e-9)
    assert {r.events for r in board.values()} == {1}

    second = await make_event(engine)
    await play_worked_example_again(engine, second, ids)
    await close_event(engine, second, now=AFTER)
    again = {r.name: r for r in await duplicate_ratings_board(engine, 10)}
    assert {r.events for r in again.values()} == {2}
    async with engine.connect() as conn:
        c = duplicate_rating_changes.c
        rows = (
            await conn.execute(
                select(c.rating_before, c.rating_after).where(
                    c.event_id == second, c.account_id == ids["Ann"]
                )
            )
        ).all()
    assert [(b, a) for b, a in rows] == [(board["Ann"].rating, again["Ann"].rating)]


async def play_worked_example_again(
    engine: AsyncEngine, event_id: int, ids: dict[str, int]
) -> None:
    """The same results, by the same accounts, in a second event."""

    entries = {
        n: await enter_event(engine, event_id, account_id=i, now=DURING) for n, i in ids.items()
    }
    minute = 0
    for deal, scores in SCORES.items():
        for name, score in scores.items():
            minute += 1
            result = EventResult(entries[name], deal, 0, score, CONTRACTS[score], f"u-{name}", deal)
            await record_result(engine, result, now=DURING + timedelta(minutes=minute))
