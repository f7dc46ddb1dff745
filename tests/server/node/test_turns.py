"""``your_turn`` comes once per turn and connection, whatever order the events arrive in."""

from __future__ import annotations

import random

import engine
from protocol import models as m
from server.node.runtime import Build, TableRuntime, TableServices
from server.settings import Settings
from server.store.memory import MemoryStore
from server.table import seating
from server.table import transitions as tr
from server.table.data import TableData
from server.table.seating import JoinRequest

from ..recorder import Recorder


async def started_table() -> TableRuntime:
    node = TableServices.alone(Settings(), MemoryStore())
    data = TableData(table_id="t1", options=m.TableOptions(), created_ms=1)
    await node.store.create(data)
    runtime = TableRuntime(node, data)
    for seat in range(4):
        await runtime.transact(_sit(seat))
    assert runtime.state is not None
    return runtime


async def test_a_seat_joining_before_the_last_events_arrive_is_asked_once() -> None:
    runtime = await started_table()
    assert runtime.state is not None
    seat = Recorder(runtime.state.to_act)
    # The table's last events (its turn among them) have not been delivered here yet,
    # as when they come from another node after the state did.
    latest = await runtime.services.store.events_since("t1", 0)
    assert latest is not None
    runtime.delivery.delivered = latest[-3].seq - 1
    await runtime.follow(seat)  # the snapshot and the turn
    runtime._carry(runtime.delivery.receive(latest[-3:]))  # the turn event: no second your_turn
    assert len(seat.of_type("your_turn")) == 1
    assert seat.of_type("your_turn")[0]["seq"] == runtime.data.seq


async def test_each_new_turn_is_asked_for_once() -> None:
    runtime = await started_table()
    seats = [Recorder(s) for s in range(4)]
    for seat in seats:
        await runtime.follow(seat)
    rng = random.Random(3)
    for _ in range(12):  # the bids, then the first cards
        state = runtime.state
        assert state is not None and not state.is_over
        asked = [len(seat.of_type("your_turn")) for seat in seats]
        action = engine.random_action(state, rng)
        await runtime.transact(lambda d, s, a=action: tr.act(d, s, a, 0))  # type: ignore[misc]
        after = runtime.state
        assert after is not None
        for seat in seats:
            expected = asked[seat.seat or 0] + (seat.seat == after.to_act)
            assert len(seat.of_type("your_turn")) == expected


async def test_a_connection_that_moves_to_another_table_is_asked_there_too() -> None:
    # Two tables in the same state: the same seat's first turn has the same number at both.
    first, second = await started_table(), await started_table()
    assert first.state is not None and second.state is not None
    assert (first.data.seq, first.state.to_act) == (second.data.seq, second.state.to_act)
    seat = Recorder(first.state.to_act)
    await first.follow(seat)
    first.unsubscribe(seat)  # the player leaves, and starts another table on the connection
    await second.follow(seat)
    turns = seat.of_type("your_turn")
    assert len(turns) == 2 and turns[0]["seq"] == turns[1]["seq"]


def _sit(seat: int) -> Build:
    """The change that seats a guest in ``seat``."""
    return lambda d, s: seating.join(d, s, JoinRequest("", 0, seat))
