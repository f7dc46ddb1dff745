"""Each version names the commit it was built on, so a node never builds on, or shows,
a change the store does not hold: another node's commit that beat ours, or a commit the
store lost (a Redis failover). Two runtimes ("nodes") share one store here; updates reach
them only when the test hands them over, in the order it chooses."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import engine
from engine import to_record
from protocol import models as m
from server.node.runtime import Build, TableRuntime, TableServices
from server.settings import Settings
from server.store.memory import MemoryStore
from server.table import seating
from server.table import transitions as tr
from server.table.commits import Update
from server.table.data import StoredEvent, TableData, deal_state, next_commits
from server.table.seating import JoinRequest

from ...deal_seeds import deal_from, ordinary, where
from ..recorder import Recorder


@pytest.fixture(autouse=True)
def ordinary_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests bid, so no deal may be a petit sec (R3), dealt over at once."""
    deal_from(monkeypatch, where("commit-chain", ordinary))


class QuietStore(MemoryStore):
    """Tells no listener: the test delivers updates itself. ``before_commit`` runs first."""

    def __init__(self) -> None:
        super().__init__()
        self.before_commit: list[Any] = []
        self.committed: list[Update] = []

    async def commit(self, table: TableData, events: list[StoredEvent]) -> Update:
        while self.before_commit:
            await self.before_commit.pop(0)()
        current = self._tables.get(table.table_id)
        if current is not None and current.version == table.version - 1:
            if not table.parent or current.commit == table.parent:
                self.committed.append(Update(table, events))
        return await super().commit(table, events)


async def two_nodes() -> tuple[QuietStore, TableRuntime, TableRuntime]:
    store = QuietStore()
    data = TableData(
        table_id="t1", options=m.TableOptions(), created_ms=1, commits=next_commits([])
    )
    await store.create(data)
    a = TableRuntime(TableServices.alone(Settings(), store), data)
    b = TableRuntime(TableServices.alone(Settings(), store), data)
    for seat in range(4):
        await a.transact(_sit(seat))
    for update in store.committed:
        b.apply_update(update)
    assert a.data == b.data and a.state is not None
    return store, a, b


def consistent(runtime: TableRuntime) -> bool:
    """The runtime's engine state is its data's deal, replayed."""
    deal = runtime.data.deal
    assert deal is not None and runtime.state is not None
    return to_record(runtime.state) == to_record(deal_state(deal))


def bid(runtime: TableRuntime, choice: int = 0) -> engine.Bid:
    """A legal bid of the seat to act, as this runtime sees the table."""
    state = runtime.state
    assert state is not None
    return engine.Bid(state.to_act, engine.legal_actions(state).bids[choice])


async def test_another_nodes_update_of_the_version_we_commit_does_not_get_our_state() -> None:
    store, a, b = await two_nodes()
    state = a.state
    assert state is not None
    seat = state.to_act
    # B's prise lands first and its update reaches A while A's pass (for the same seat)
    # is on its way; A's pass is refused by the store, then made for the next seat.

    async def b_wins() -> None:
        await b.transact(lambda d, s: tr.act(d, s, bid(b, 1), 0))
        a.apply_update(store.committed[-1])

    store.before_commit.append(b_wins)
    await a.transact(lambda d, s: tr.act(d, s, bid(a), 0))
    assert a.data.version == store._tables["t1"].version
    assert consistent(a), "A took its own would-be state for B's version"
    assert a.state is not None and a.state.to_act != seat


async def test_a_commit_the_store_lost_is_undone_on_every_node() -> None:
    store, a, b = await two_nodes()
    watcher = Recorder(None)
    await b.follow(watcher)
    kept, kept_events = store._tables["t1"], store._events["t1"].copy()
    # A commits a bid, B hears of it; then the store loses it.
    await a.transact(lambda d, s: tr.act(d, s, bid(a), 0))
    b.apply_update(store.committed[-1])
    lost_seq = b.delivered
    store._tables["t1"], store._events["t1"] = kept, kept_events
    # B acts on what it has: refused by the store (its parent is gone), B goes back to
    # the store's picture and tells its followers; the action is then built again.
    await b.transact(lambda d, s: tr.act(d, s, bid(b), 0))  # then made on the store's
    await asyncio.sleep(0)  # the mark: nothing to do, B's own commit told the others
    assert b.data.version == kept.version + 1 and b.data.parent == kept.commit
    assert b.data.version == store._tables["t1"].version
    assert b.data.commit == store._tables["t1"].commit
    assert consistent(b)
    snapshots = [f for f in watcher.frames if f["type"] == "snapshot"]
    assert snapshots[-1]["seq"] < lost_seq
    # A hears the store's next version, made by another commit than its lost one: A too
    # starts again from the store.
    assert a.data.version == store._tables["t1"].version
    assert a.data.commit != store._tables["t1"].commit
    a.apply_update(store.committed[-1])
    assert a.data.commit == store._tables["t1"].commit
    assert consistent(a)


def _sit(seat: int) -> Build:
    """The change that seats a guest in ``seat``."""
    return lambda d, s: seating.join(d, s, JoinRequest("", 0, seat))
