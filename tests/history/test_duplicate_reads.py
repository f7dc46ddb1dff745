"""Who sees what of a duplicate event, in a real SQLite and PostgreSQL: nobody another's
result on a deal before having played it, everything once the event closes (issue 24)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from server.history import (
    EventResult,
    NoSuchEvent,
    NotEntered,
    ResultsHidden,
    check_record_visible,
    close_event,
    deal_results,
    enter_event,
    entry_results,
    event_standings,
    own_standing,
    record_result,
)

from .duplicate_helpers import AFTER, DURING, make_accounts, make_event, play_worked_example

LATER = DURING + timedelta(hours=2)  # after every result of the worked example, still open


async def test_the_standings_show_once_the_event_is_closed_and_scored(engine: AsyncEngine) -> None:
    event_id = await make_event(engine)
    ids, _entries = await play_worked_example(engine, event_id)
    with pytest.raises(
        ResultsHidden, match=f"the standings of event {event_id} show once it closes"
    ):
        await event_standings(engine, event_id, ids["Bob"], now=LATER)
    with pytest.raises(ResultsHidden, match="is closed and being scored"):
        await event_standings(engine, event_id, ids["Bob"], now=AFTER)
    await close_event(engine, event_id, now=AFTER)
    standings = await event_standings(engine, event_id, None, now=AFTER)
    assert [s.name for s in standings] == ["Bob", "Ann", "Dan", "Cleo"]
    page = await event_standings(engine, event_id, None, now=AFTER, limit=2, offset=1)
    assert [(s.rank, s.name) for s in page] == [(2, "Ann"), (2, "Dan")]


async def test_a_deals_results_hide_from_whoever_has_not_played_it(engine: AsyncEngine) -> None:
    event_id = await make_event(engine)
    ids, _entries = await play_worked_example(engine, event_id)
    eve = (await make_accounts(engine, ["Eve"]))["Eve"]
    # Dan stopped before deal 2, Eve never entered, nobody signed in: none sees deal 2.
    for viewer in (ids["Dan"], eve, None):
        with pytest.raises(ResultsHidden, match=f"deal 2 of event {event_id} shows once you"):
            await deal_results(engine, event_id, 2, viewer, now=LATER)
    # Ann played it: she sees the results so far (unmarked: the event is not scored).
    shown = await deal_results(engine, event_id, 2, ids["Ann"], now=LATER)
    assert [(r.name, r.score, r.mark) for r in shown] == [
        ("Bob", 210, None),
        ("Ann", -35, None),
        ("Cleo", -70, None),
    ]
    assert await deal_results(engine, event_id, 0, ids["Dan"], now=LATER)
    # Once the event closes, anyone sees every deal; once scored, with the marks.
    assert len(await deal_results(engine, event_id, 2, None, now=AFTER)) == 3
    await close_event(engine, event_id, now=AFTER)
    marked = await deal_results(engine, event_id, 2, eve, now=AFTER)
    assert [(r.name, r.mark) for r in marked] == [("Bob", 100), ("Ann", 50), ("Cleo", 0)]
    with pytest.raises(NoSuchEvent, match="has deals 0-2"):
        await deal_results(engine, event_id, 3, eve, now=AFTER)


async def test_an_entrants_results_hide_from_others_until_the_close(engine: AsyncEngine) -> None:
    event_id = await make_event(engine)
    ids, entries = await play_worked_example(engine, event_id)
    own = await entry_results(engine, event_id, entries["Ann"], ids["Ann"], now=LATER)
    assert [(r.deal_index, r.score, r.table_id, r.deal_number) for r in own] == [
        (0, 150, "t-Ann", 0),
        (1, -105, "t-Ann", 1),
        (2, -35, "t-Ann", 2),
    ]
    for viewer in (ids["Bob"], None):
        with pytest.raises(ResultsHidden, match="another entrant's results in event"):
            await entry_results(engine, event_id, entries["Ann"], viewer, now=LATER)
    assert len(await entry_results(engine, event_id, entries["Ann"], None, now=AFTER)) == 3
    with pytest.raises(NotEntered, match=f"no entry {entries['Dan'] + 1} in event"):
        await entry_results(engine, event_id, entries["Dan"] + 1, None, now=AFTER)


async def test_a_running_standing_counts_those_who_played_before(engine: AsyncEngine) -> None:
    event_id = await make_event(engine)
    ids, _entries = await play_worked_example(engine, event_id)
    # Played deal by deal in the order Ann, Bob, Cleo, Dan; each deal against those before:
    # Ann was first on every deal: 50% each. Dan, last on deals 0 and 1: 33.33% and 100%.
    # Bob: deal 0 ties Ann (1 of 2: 50%), deal 1 beats Ann (100%), deal 2 beats Ann (100%).
    # Cleo: deal 0 0%, deal 1 beats Ann and ties Bob (3 of 4: 75%), deal 2 0%.
    expected = {"Ann": 50.0, "Bob": 250 / 3, "Cleo": 25.0, "Dan": (100 / 3 + 100) / 2}
    for name, mark in expected.items():
        standing = await own_standing(engine, event_id, ids[name], now=LATER)
        assert standing.mark == pytest.approx(mark) and standing.deals == 3
    assert (await own_standing(engine, event_id, ids["Dan"], now=LATER)).played == 2
    eve = (await make_accounts(engine, ["Eve"]))["Eve"]
    with pytest.raises(NotEntered):
        await own_standing(engine, event_id, eve, now=LATER)
    await enter_event(engine, event_id, account_id=eve, now=LATER)
    assert (await own_standing(engine, event_id, eve, now=LATER)).mark is None


async def test_a_running_standing_under_datum(engine: AsyncEngine) -> None:
    event_id = await make_event(engine, deals=1, scoring="datum")
    ids = await make_accounts(engine, ["Ann", "Bob"])
    for minute, (name, score) in enumerate((("Ann", 150), ("Bob", -50)), 1):
        entry = await enter_event(engine, event_id, account_id=ids[name], now=DURING)
        result = EventResult(entry, 0, 0, score, "garde")
        await record_result(engine, result, now=DURING + timedelta(minutes=minute))
    # Bob's -50 against the mean of Ann's 150 and his -50: 50 below it.
    assert (await own_standing(engine, event_id, ids["Bob"], now=LATER)).mark == -100
    assert (await own_standing(engine, event_id, ids["Ann"], now=LATER)).mark == 0


async def test_a_stored_deal_of_an_open_event_hides_from_whoever_has_not_played_it(
    engine: AsyncEngine,
) -> None:
    event_id = await make_event(engine)
    ids, _entries = await play_worked_example(engine, event_id)
    # Bob's deal 2 (table "t-Bob", deal 2) shows Dan the cards of a deal he has not played.
    with pytest.raises(ResultsHidden, match=f"deal 2 of event {event_id} shows once you"):
        await check_record_visible(engine, "t-Bob", 2, ids["Dan"], now=LATER)
    with pytest.raises(ResultsHidden):
        await check_record_visible(engine, "t-Bob", 2, None, now=LATER)
    await check_record_visible(engine, "t-Bob", 2, ids["Ann"], now=LATER)
    await check_record_visible(engine, "t-Bob", 0, ids["Dan"], now=LATER)
    await check_record_visible(engine, "t-Bob", 2, None, now=AFTER)
    await check_record_visible(engine, "a-table-of-no-event", 0, None, now=LATER)
