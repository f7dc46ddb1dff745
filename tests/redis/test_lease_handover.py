"""Issue 25: a table driven by a node that holds none of its seats (it was created there,
or that node took its lease first) is handed to the node its seated players are on, so
that AI turns are not relayed through Redis to them, and the first node stops following
it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from server.app import App
from server.settings import Settings
from server.table import transitions as tr

from ..server.wire import WireClient, is_event
from .play import lease_holder


@pytest.fixture
async def two(redis_url: str) -> AsyncIterator[tuple[App, App]]:
    def settings(name: str) -> Settings:
        return Settings(port=0, lease_ms=600, redis_url=redis_url, node_id=name)

    a = await App.start(settings("a"))
    b = await App.start(settings("b"))
    try:
        yield a, b
    finally:
        await a.stop(drain_seconds=0)
        await b.stop(drain_seconds=0)


async def test_the_driver_moves_to_the_node_of_the_tables_seats(
    two: tuple[App, App], redis_url: str
) -> None:
    a, b = two
    creator = await WireClient.open(f"ws://127.0.0.1:{a.port}/")  # the lobby's node
    created = await creator.request(
        {"type": "create_table", "options": {"deals": 3}}, "table_created"
    )
    table_id = created["table"]["table_id"]
    alice = await WireClient.open(f"ws://127.0.0.1:{b.port}/t/{table_id}")  # the seats'
    await alice.request({"type": "join", "table_id": table_id, "name": "Alice"}, "joined")
    await alice.send({"type": "start"})
    await alice.until(is_event("turn"))
    on_a = a.node.tables.get(table_id)
    assert on_a is not None
    if await lease_holder(redis_url, table_id) != "a":  # a drives it first
        await b.node.store.release_lease(table_id, "b")
        b.node.tables.get(table_id).stop_driving()  # type: ignore[union-attr]
        await a.node.leases.take(on_a)
    assert await lease_holder(redis_url, table_id) == "a"
    async with asyncio.timeout(10):
        while await lease_holder(redis_url, table_id) != "b":
            await asyncio.sleep(0.1)
    assert a.node.metrics.lease_handovers._value.get() == 1
    async with asyncio.timeout(10):  # and a no longer follows it: it would hear every change
        while a.node.tables.get(table_id) is not None:
            await asyncio.sleep(0.1)
    await alice.until(is_event("turn"))  # play goes on, driven by b
    await creator.close()
    await alice.close()


async def test_no_table_is_handed_to_a_node_without_a_heartbeat(redis_url: str) -> None:
    """A node killed outright (kill -9) closes no connection: its seats name it until the
    driver marks them away. Handed to it, the table went undriven for a sweep, and again
    from every node that took it up meanwhile; the driver keeps it instead."""
    a = await App.start(Settings(port=0, lease_ms=600, redis_url=redis_url, node_id="a"))
    try:
        alice = await WireClient.open(f"ws://127.0.0.1:{a.port}/")
        created = await alice.request(
            {"type": "create_table", "options": {"deals": 3}}, "table_created"
        )
        table_id = created["table"]["table_id"]
        joined = await alice.request(
            {"type": "join", "table_id": table_id, "name": "Alice"}, "joined"
        )
        seat = joined["seat"]
        await alice.send({"type": "start"})
        await alice.until(is_event("turn"))
        runtime = a.node.tables.get(table_id)
        assert runtime is not None
        assert await lease_holder(redis_url, table_id) == "a"
        # Her seat is now held through "ghost", a node with no heartbeat: gone.
        await runtime.transact(lambda d, s: tr.present(d, s, seat, node="ghost"))
        async with asyncio.timeout(10):  # two sweeps without it, and the seat is away
            while runtime.data.seats[seat].dropped_at_ms is None:
                await asyncio.sleep(0.05)
        assert a.node.metrics.lease_handovers._value.get() == 0
        assert runtime.driving
        assert await lease_holder(redis_url, table_id) == "a"
        await alice.close()
    finally:
        await a.stop(drain_seconds=0)
