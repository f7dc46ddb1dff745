"""One quick-play queue on two nodes of one Redis; one node killed (issue 23, "Done when").

Players queue on whichever node they are connected to and meet at one table. A node
killed with ``kill -9`` while it was the matcher: the tickets of the players connected to
the other node survive (the matcher lock passes on when its lease runs out), the dead
node's players' tickets go with their lease, and nobody is seated twice.
"""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from ..server.queue.test_quickplay import confirm, v2
from ..server.wire import WireClient
from .conftest import NodeFactory

pytestmark = pytest.mark.redis
# Groups of four only (no AI fill within the test), a short lease and ready check.
QUEUE = "fill_three_seconds=600,fill_two_seconds=600,ready_seconds=5,tick_seconds=0.1,lease_ms=1500"


async def tickets_in(redis_url: str) -> int:
    client: Redis = Redis.from_url(redis_url)
    try:
        return int(await client.hlen("{queue}:tickets"))
    finally:
        await client.aclose()


async def matcher_of(redis_url: str) -> str | None:
    client: Redis = Redis.from_url(redis_url)
    try:
        holder = await client.get("{queue}:matcher")
        return None if holder is None else holder.decode() if isinstance(holder, bytes) else holder
    finally:
        await client.aclose()


async def queued(url: str, name: str) -> WireClient:
    client = await v2(url)
    await client.request({"type": "queue", "name": name}, "queue_status")
    return client


async def test_players_on_two_nodes_meet_at_one_table(redis_url: str, nodes: NodeFactory) -> None:
    a = nodes(redis_url, "qa", "--queue", QUEUE)
    b = nodes(redis_url, "qb", "--queue", QUEUE)
    clients = [await queued(n.url, f"P{i}") for i, n in enumerate((a, b, a, b))]
    await asyncio.gather(*(confirm(c) for c in clients))
    joined = [await c.until(lambda m: m["type"] == "joined") for c in clients]
    assert len({j["table_id"] for j in joined}) == 1
    assert sorted(j["seat"] for j in joined) == [0, 1, 2, 3]
    assert await tickets_in(redis_url) == 0


async def test_a_killed_matcher_loses_no_ticket_of_a_connected_player(
    redis_url: str, nodes: NodeFactory
) -> None:
    a = nodes(redis_url, "qa", "--queue", QUEUE)
    for _ in range(50):  # a ticks first: it holds the matcher lock
        if await matcher_of(redis_url) == "qa":
            break
        await asyncio.sleep(0.1)
    assert await matcher_of(redis_url) == "qa"
    b = nodes(redis_url, "qb", "--queue", QUEUE)
    on_b = [await queued(b.url, f"B{i}") for i in range(3)]
    await queued(a.url, "A0")
    assert await tickets_in(redis_url) == 4
    a.kill()  # it may have proposed a ready check to the four already: A0 cannot confirm
    for _ in range(80):  # the dead node's player's ticket goes with its lease; b's stay
        if await tickets_in(redis_url) == 3:
            break
        await asyncio.sleep(0.1)
    assert await tickets_in(redis_url) == 3
    fourth = await queued(b.url, "B3")
    found = await fourth.until(lambda m: m["type"] == "match_found", 30)
    assert found["humans"] == 4
    players = [*on_b, fourth]
    for client in players:
        if client is not fourth:
            await client.until(lambda m: m["type"] == "match_found" and m == found, 30)
        await client.send({"type": "ready", "match_id": found["match_id"]})
    joined = [await c.until(lambda m: m["type"] == "joined", 30) for c in players]
    assert len({j["table_id"] for j in joined}) == 1
    assert sorted(j["seat"] for j in joined) == [0, 1, 2, 3]
    assert await matcher_of(redis_url) == "qb"
    await asyncio.sleep(0.5)  # nobody is seated twice
    assert all(sum(m["type"] == "joined" for m in c.received) == 1 for c in players)
    assert await tickets_in(redis_url) == 0
