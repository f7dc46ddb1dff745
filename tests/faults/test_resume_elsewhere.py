"""A player resumes on node B, and the old socket on node A closes before node A hears of
the resume: the seat is held by the newer connection and is not marked away, so the AI
never plays a connected player's turns (issue 13.2, with real nodes and sockets)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from server.app import App
from server.settings import Settings

from ..redis.servers import RedisServer
from ..server.wire import Message, WireClient, is_event


@pytest.fixture
async def two_nodes(own_redis: RedisServer) -> AsyncIterator[tuple[App, App]]:
    """Two nodes on a Redis of the test's own, in this process (each its store, port, id)."""
    started = [
        await App.start(Settings(port=0, lease_ms=900, redis_url=own_redis.url, node_id=name))
        for name in ("a", "b")
    ]
    try:
        yield started[0], started[1]
    finally:
        for app in started:
            await app.stop(drain_seconds=0)


def seat_zero_away(message: Message) -> bool:
    if not is_event("seat")(message):
        return False
    info = message["event"]["seat"]
    return bool(info["seat"] == 0 and not info["connected"])


async def test_the_old_socket_closing_after_a_resume_on_another_node_leaves_the_seat_present(
    two_nodes: tuple[App, App], own_redis: RedisServer
) -> None:
    a, b = two_nodes
    old = await WireClient.open(a.url)
    created = await old.request(
        {"type": "create_table", "options": {"deals": 1, "grace_seconds": 0.3}}, "table_created"
    )
    table_id = created["table"]["table_id"]
    await old.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    watcher = await WireClient.open(b.url)
    await watcher.request({"type": "watch", "table_id": table_id}, "watching")
    # Node A goes deaf to other nodes' commits for a moment (its pub/sub connection is
    # cut; it reconnects after a back-off): it will not hear of the resume in time.
    redis: Redis = Redis.from_url(own_redis.url)
    try:
        await redis.client_kill_filter(_type="pubsub")
    finally:
        await redis.aclose()
    new = await WireClient.open(b.url)
    await new.request({"type": "resume", "token": old.token}, "joined")
    await old.close()  # node A sees it close, with the seat's older session
    await new.send({"type": "start"})
    # Well past the grace period the seat's turn is still its player's: the AI waits.
    turn = await new.until(lambda m: m["type"] == "your_turn", timeout=30)
    await asyncio.sleep(0.7)
    assert not any(seat_zero_away(m) for m in watcher.received)
    assert not [m for m in watcher.received if is_event("bid")(m) and m["event"]["seat"] == 0]
    act = {"type": "act", "action": {"kind": "bid", "contract": turn["legal"]["bids"][0]}}
    await new.request({**act, "id": 1}, "ack")
    await watcher.until(lambda m: is_event("bid")(m) and m["event"]["seat"] == 0)
    assert not any(seat_zero_away(m) for m in watcher.received)
