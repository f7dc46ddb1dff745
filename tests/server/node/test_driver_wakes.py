"""A change that leaves the table's background work nothing to do does not wake it: every
commit used to (a task step, a ``wait_for`` task and a timer each; issue 18's "no wake-ups
when nothing is due"). Work that a change makes due still wakes it."""

from __future__ import annotations

import pytest

import engine
from protocol import models as m
from server.node.runtime import Build, TableRuntime, TableServices
from server.settings import Settings
from server.store.memory import MemoryStore
from server.table import seating
from server.table import transitions as tr
from server.table.data import TableData, next_commits
from server.table.seating import JoinRequest
from tests.deal_seeds import deal_from, ordinary, where


async def seated(options: m.TableOptions, ai_seats: int = 0) -> TableRuntime:
    store = MemoryStore()
    data = TableData(table_id="t1", options=options, created_ms=1, commits=next_commits([]))
    await store.create(data)
    runtime = TableRuntime(TableServices.alone(Settings(), store), data)
    for seat in range(4 - ai_seats):
        await runtime.transact(_sit(seat))
    return runtime


async def bid(runtime: TableRuntime) -> None:
    state = runtime.state
    assert state is not None
    choice = engine.Bid(state.to_act, engine.legal_actions(state).bids[0])
    await runtime.transact(lambda d, s: tr.act(d, s, choice, 0))


async def test_a_humans_move_with_no_clock_does_not_wake_the_driver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deal_from(monkeypatch, where("driver-wakes", ordinary))
    runtime = await seated(m.TableOptions())
    assert runtime.state is not None and not runtime.state.is_over
    runtime.driver.kick.clear()
    await bid(runtime)
    assert runtime.driver.due_in() is None
    assert not runtime.driver.kick.is_set()


async def test_a_move_that_starts_a_clock_wakes_the_driver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deal_from(monkeypatch, where("driver-wakes", ordinary))
    runtime = await seated(m.TableOptions(turn_seconds=30))
    runtime.driver.kick.clear()
    await bid(runtime)
    assert runtime.driver.due_in() is not None
    assert runtime.driver.kick.is_set()


def _sit(seat: int) -> Build:
    """The change that seats a guest in ``seat``."""
    return lambda d, s: seating.join(d, s, JoinRequest("", 0, seat))
