"""Duplicate events in a real SQLite and PostgreSQL: made, entered once, played in order,
scored once when closed (docs/DUPLICATE.md)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from server.duplicate import DuplicateEvent
from server.history import (
    AlreadyEntered,
    BadEntry,
    BadEventResult,
    EventNotOpen,
    EventResult,
    EventStillOpen,
    NoSuchEvent,
    NotEntered,
    close_event,
    create_event,
    deal_results,
    enter_event,
    event_standings,
    record_result,
    stored_event,
)
from server.history.duplicate_play import _insert_result
from server.history.schema import duplicate_results

from .duplicate_helpers import (
    AFTER,
    CLOSES,
    DURING,
    OPENS,
    make_accounts,
    make_event,
    play_worked_example,
)


async def test_an_event_is_kept_as_it_was_defined(engine: AsyncEngine) -> None:
    event = DuplicateEvent("Daily", bytes(range(32)), 20, OPENS, CLOSES, "tables", "datum")
    event_id = await create_event(engine, event, now=OPENS)
    stored = await stored_event(engine, event_id)
    assert stored.event == event and stored.id == event_id
    assert (stored.created_at, stored.scored_at) == (OPENS, None)
    assert event.seed.hex() not in repr(stored)
    with pytest.raises(NoSuchEvent, match=f"no event {event_id + 1}"):
        await stored_event(engine, event_id + 1)


async def test_an_account_enters_an_event_once(engine: AsyncEngine) -> None:
    event_id = await make_event(engine)
    other_event = await make_event(engine)
    ids = await make_accounts(engine, ["Ann", "Bob"])
    entry = await enter_event(engine, event_id, account_id=ids["Ann"], now=DURING)
    with pytest.raises(AlreadyEntered, match="has entered event") as refused:
        await enter_event(engine, event_id, account_id=ids["Ann"], now=DURING)
    assert refused.value.code == "already_entered"
    assert await enter_event(engine, event_id, account_id=ids["Bob"], now=DURING) != entry
    assert await enter_event(engine, other_event, account_id=ids["Ann"], now=DURING) != entry


async def test_two_entries_of_one_account_at_once_make_one(engine: AsyncEngine) -> None:
    event_id = await make_event(engine)
    ann = (await make_accounts(engine, ["Ann"]))["Ann"]
    tries = [enter_event(engine, event_id, account_id=ann, now=DURING) for _ in range(4)]
    outcomes = await asyncio.gather(*tries, return_exceptions=True)
    assert sum(isinstance(o, int) for o in outcomes) == 1
    assert sum(isinstance(o, AlreadyEntered) for o in outcomes) == 3


async def test_entering_outside_the_window_or_as_no_one_is_refused(engine: AsyncEngine) -> None:
    event_id = await make_event(engine)
    ann = (await make_accounts(engine, ["Ann"]))["Ann"]
    for moment, said in ((OPENS - timedelta(seconds=1), "it opens"), (CLOSES, "it closed")):
        with pytest.raises(EventNotOpen, match=f"cannot be entered: {said} at"):
            await enter_event(engine, event_id, account_id=ann, now=moment)
    with pytest.raises(BadEntry, match=f"no account {ann + 1}"):
        await enter_event(engine, event_id, account_id=ann + 1, now=DURING)
    with pytest.raises(BadEntry, match="an AI enters only a tables event"):
        await enter_event(engine, event_id, ai_level="strong", now=DURING)
    with pytest.raises(BadEntry, match="an account or an AI level"):
        await enter_event(engine, event_id, now=DURING)
    with pytest.raises(NoSuchEvent):
        await enter_event(engine, event_id + 5, account_id=ann, now=DURING)


async def test_a_robot_entry_plays_the_deals_in_order_in_seat_0(engine: AsyncEngine) -> None:
    event_id = await make_event(engine)
    ann = (await make_accounts(engine, ["Ann"]))["Ann"]
    entry = await enter_event(engine, event_id, account_id=ann, now=DURING)
    first = EventResult(entry, 0, 0, 150, "garde", "t-1", 0)
    with pytest.raises(BadEventResult, match="deal 1 is played after deal 0: in order"):
        await record_result(engine, EventResult(entry, 1, 0, 150, "garde"), now=DURING)
    with pytest.raises(BadEventResult, match=f"entry {entry} plays in seat 0, not 2"):
        await record_result(engine, EventResult(entry, 0, 2, 150, "garde"), now=DURING)
    assert await record_result(engine, first, now=DURING)
    # The same result again (a retry) is a no-op; another one on that deal is refused.
    assert not await record_result(engine, first, now=DURING)
    with pytest.raises(BadEventResult, match="has a result on deal 0 already"):
        await record_result(engine, EventResult(entry, 0, 0, -50, "prise", "t-1", 0), now=DURING)
    with pytest.raises(BadEventResult, match="has deals 0-2, not 3"):
        await record_result(engine, EventResult(entry, 3, 0, 0, None), now=DURING)
    with pytest.raises(NotEntered, match=f"no entry {entry + 1}"):
        await record_result(engine, EventResult(entry + 1, 0, 0, 0, None), now=DURING)


async def test_a_tables_entry_keeps_the_seat_of_its_first_deal(engine: AsyncEngine) -> None:
    event_id = await make_event(engine, kind="tables")
    ann = (await make_accounts(engine, ["Ann"]))["Ann"]
    entry = await enter_event(engine, event_id, account_id=ann, now=DURING)
    filler = await enter_event(engine, event_id, ai_level="strong", now=DURING)
    assert await record_result(engine, EventResult(entry, 0, 2, -35, "prise", "t", 0), now=DURING)
    assert await record_result(engine, EventResult(filler, 0, 1, 105, "prise", "t", 0), now=DURING)
    with pytest.raises(BadEventResult, match="plays in seat 2, not 3"):
        await record_result(engine, EventResult(entry, 1, 3, 0, None), now=DURING)
    assert await record_result(engine, EventResult(entry, 1, 2, 0, None), now=DURING)


@pytest.mark.parametrize(
    ("score", "contract", "table", "message"),
    [
        (0.25, "garde", ("t", 0), "a whole or half point, not 0.25"),
        (float("inf"), "garde", ("t", 0), "a number, not inf"),
        (150, "chelem", ("t", 0), "a contract is one of prise, garde, garde_sans, garde_contre"),
        (35, None, ("t", 0), "a deal passed out scores 0, not 35"),
        (35, "prise", ("t", None), "by table id and deal number, or not at all"),
        (35, "prise", ("", 0), "a table id has 1-64 characters"),
        (35, "prise", ("t", -1), "a deal number is 0 or more, not -1"),
    ],
)
async def test_a_bad_result_is_refused_and_changes_nothing(
    engine: AsyncEngine,
    score: float,
    contract: str | None,
    table: tuple[str, int | None],
    message: str,
) -> None:
    event_id = await make_event(engine)
    ann = (await make_accounts(engine, ["Ann"]))["Ann"]
    entry = await enter_event(engine, event_id, account_id=ann, now=DURING)
    with pytest.raises(BadEventResult, match=message):
        await record_result(engine, EventResult(entry, 0, 0, score, contract, *table), now=DURING)
    async with engine.connect() as conn:
        assert (
            await conn.execute(select(func.count()).select_from(duplicate_results))
        ).scalar() == 0


async def test_playing_outside_the_window_is_refused(engine: AsyncEngine) -> None:
    event_id = await make_event(engine)
    ann = (await make_accounts(engine, ["Ann"]))["Ann"]
    entry = await enter_event(engine, event_id, account_id=ann, now=DURING)
    with pytest.raises(EventNotOpen, match="cannot be played: it closed at"):
        await record_result(engine, EventResult(entry, 0, 0, 0, None), now=CLOSES)
    with pytest.raises(EventNotOpen, match="cannot be played: it opens at"):
        await record_result(engine, EventResult(entry, 0, 0, 0, None), now=OPENS - timedelta(1))


async def test_closing_scores_the_worked_example_as_computed_by_hand(engine: AsyncEngine) -> None:
    event_id = await make_event(engine)
    _ids, entries = await play_worked_example(engine, event_id)
    with pytest.raises(EventStillOpen, match=f"event {event_id} closes at"):
        await close_event(engine, event_id, now=CLOSES - timedelta(seconds=1))
    scores = await close_event(engine, event_id, now=AFTER)
    assert scores is not None and len(scores.standings) == 4
    # tests/duplicate/test_standings.py works these figures out by hand.
    standings = await event_standings(engine, event_id, None, now=AFTER)
    shown = [(s.rank, s.name, round(s.mark, 2), s.played) for s in standings]
    assert shown == [
        (1, "Bob", 77.78, 3),
        (2, "Ann", 44.44, 3),
        (2, "Dan", 44.44, 2),
        (4, "Cleo", 16.67, 3),
    ]
    deal_0 = await deal_results(engine, event_id, 0, None, now=AFTER)
    marks = [
        (r.name, r.score, r.contract, None if r.mark is None else round(r.mark, 2)) for r in deal_0
    ]
    assert marks == [
        ("Ann", 150, "garde", 83.33),
        ("Bob", 150, "garde", 83.33),
        ("Dan", 0, None, 33.33),
        ("Cleo", -50, "prise", 0.0),
    ]
    assert (await stored_event(engine, event_id)).scored_at == AFTER
    # Scored once: a second close changes nothing, and the event takes no more results.
    assert await close_event(engine, event_id, now=AFTER + timedelta(hours=1)) is None
    assert (await stored_event(engine, event_id)).scored_at == AFTER
    with pytest.raises(EventNotOpen):
        await record_result(engine, EventResult(entries["Dan"], 2, 0, 0, None), now=DURING)


async def test_two_closers_at_once_score_the_event_once(engine: AsyncEngine) -> None:
    event_id = await make_event(engine)
    await play_worked_example(engine, event_id)
    outcomes = await asyncio.gather(*(close_event(engine, event_id, now=AFTER) for _ in range(3)))
    assert sum(o is not None for o in outcomes) == 1


async def test_no_result_is_inserted_into_a_scored_event(engine: AsyncEngine) -> None:
    # What keeps a result racing the scorer out: the insert reads the event unscored.
    event_id = await make_event(engine)
    _ids, entries = await play_worked_example(engine, event_id)
    await close_event(engine, event_id, now=AFTER)
    late = EventResult(entries["Dan"], 2, 0, 0, None)
    async with engine.begin() as conn:
        assert (await conn.execute(_insert_result(conn, event_id, late, DURING))).rowcount == 0
    unscored = await make_event(engine)
    ann = (await make_accounts(engine, ["Zoe"]))["Zoe"]
    entry = await enter_event(engine, unscored, account_id=ann, now=DURING)
    async with engine.begin() as conn:
        statement = _insert_result(conn, unscored, EventResult(entry, 0, 0, 0, None), DURING)
        assert (await conn.execute(statement)).rowcount == 1


async def test_an_empty_event_closes_with_no_standings(engine: AsyncEngine) -> None:
    event_id = await make_event(engine)
    scores = await close_event(engine, event_id, now=AFTER)
    assert scores is not None and scores.standings == ()
    assert await event_standings(engine, event_id, None, now=AFTER) == []
