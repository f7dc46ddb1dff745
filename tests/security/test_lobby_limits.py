"""Issue 14.4: one client cannot fill a node with tables, and the lobby stays cheap.

Each test performs the attack against a real node on loopback. Before the
limits, one address made 20,000 tables in 18 s, never freed, and a lobby of
2,000 tables answered in full each time: 40 calls a second made another
client wait 18.5 s.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from protocol import models as m
from server.app import App

from ..server.conftest import REDIS_TEST_URL, flush
from ..server.wire import WireClient
from .conftest import Start, ws_url


async def try_create(client: WireClient, **options: Any) -> dict[str, Any]:
    await client.send({"type": "create_table", "options": options})
    return await client.until(lambda m: m["type"] in ("table_created", "error"))


async def fresh_redis() -> str:
    await flush(REDIS_TEST_URL)
    return REDIS_TEST_URL


def open_tables(app: App) -> int:
    return sum(1 for r in app.node.runtimes.values() if r.data.status != "finished")


async def test_one_connection_one_address_and_the_server_each_have_a_table_limit(
    node: Start,
) -> None:
    app = await node(tables_per_connection=3, tables_per_address=5, max_tables=7)
    first = await WireClient.open(ws_url(app))
    answers = [await try_create(first) for _ in range(6)]
    assert [a["type"] for a in answers] == ["table_created"] * 3 + ["error"] * 3
    assert answers[3]["code"] == "too_many_tables"
    assert "this connection" in answers[3]["message"]
    second = await WireClient.open(ws_url(app))  # the same address (127.0.0.1)
    answers = [await try_create(second) for _ in range(3)]
    assert [a["type"] for a in answers] == ["table_created"] * 2 + ["error"]
    assert "address 127.0.0.1" in answers[2]["message"]
    assert open_tables(app) == 5
    # A finished table no longer counts: leave a started table, and make another.
    table_id = answers[0]["table"]["table_id"]
    await second.request({"type": "join", "table_id": table_id}, "joined")
    await second.request({"type": "start"}, "snapshot")
    await second.request({"type": "leave"}, "left")
    assert (await try_create(second))["type"] == "table_created"


async def test_the_server_wide_limit_counts_every_address(node: Start) -> None:
    app = await node(max_tables=4)
    clients = [await WireClient.open(ws_url(app)) for _ in range(3)]
    answers = [await try_create(c) for c in clients for _ in range(2)]
    assert [a["type"] for a in answers].count("table_created") == 4
    refused = [a for a in answers if a["type"] == "error"]
    assert {a["code"] for a in refused} == {"too_many_tables"}
    assert "the server has 4 open tables" in refused[0]["message"]


async def test_private_tables_count_toward_the_server_wide_limit(node: Start) -> None:
    app = await node(max_tables=3)
    client = await WireClient.open(ws_url(app))
    answers = [await try_create(client, private=True) for _ in range(4)]
    assert [a["type"] for a in answers] == ["table_created"] * 3 + ["error"]
    assert open_tables(app) == 3


@pytest.mark.parametrize("store", ["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def test_a_flood_of_table_creations_makes_no_more_than_the_limit(
    node: Start, store: str
) -> None:
    """2,000 create_table from one address (10 connections at once, within the rate
    limit): with Redis each creation waits for a round trip, and the concurrent ones
    must not all pass the limit one of them fills."""
    redis_url = await fresh_redis() if store == "redis" else None
    app = await node(rate_per_second=1000, rate_burst=1000, redis_url=redis_url)
    clients = [await WireClient.open(ws_url(app)) for _ in range(10)]

    async def flood(client: WireClient) -> int:
        made = 0
        for _ in range(200):
            made += (await try_create(client))["type"] == "table_created"
        return made

    made = await asyncio.gather(*(flood(c) for c in clients))
    assert sum(made) == app.node.settings.tables_per_address == 32
    assert len(await app.node.store.list_tables()) == 32


@pytest.mark.parametrize("store", ["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def test_a_table_nobody_sits_at_is_closed_and_removed(node: Start, store: str) -> None:
    redis_url = await fresh_redis() if store == "redis" else None
    app = await node(empty_table_seconds=0.5, redis_url=redis_url)
    client = await WireClient.open(ws_url(app))
    lonely = (await try_create(client))["table"]["table_id"]
    kept = (await try_create(client))["table"]["table_id"]
    await client.request({"type": "join", "table_id": kept}, "joined")
    other = await WireClient.open(ws_url(app))
    async with asyncio.timeout(10):
        while await app.node.store.load(lonely) is not None:
            await asyncio.sleep(0.1)
    await other.send({"type": "join", "table_id": lonely})
    assert (await other.until(lambda m: m["type"] == "error"))["code"] == "unknown_table"
    listed = await other.request({"type": "list_tables"}, "tables")
    assert [t["table_id"] for t in listed["tables"]] == [kept]
    assert lonely not in app.node.runtimes and kept in app.node.runtimes


@pytest.mark.parametrize("store", ["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def test_the_lobby_is_paged_and_filtered(node: Start, store: str) -> None:
    redis_url = await fresh_redis() if store == "redis" else None
    app = await node(tables_per_connection=0, tables_per_address=0, redis_url=redis_url)
    client = await WireClient.open(ws_url(app))
    made = []
    for i in range(130):
        created = await try_create(client, ai_level="expert" if i % 3 == 0 else "basic")
        made.append(created["table"]["table_id"])
    await client.request({"type": "join", "table_id": made[0]}, "joined")
    await client.request({"type": "start"}, "snapshot")  # playing: its AI seats are busy
    seen: list[str] = []
    after = None
    pages = 0
    while True:
        query = {"type": "list_tables", "limit": 50} | ({"after": after} if after else {})
        page = await client.request(query, "tables")
        pages += 1
        assert len(page["tables"]) <= 50
        seen += [t["table_id"] for t in page["tables"]]
        after = page["next"]
        if after is None:
            break
    # Each table once, in creation order (tables made in the same millisecond by id).
    assert pages == 3 and len(seen) == len(set(seen)) and sorted(seen) == sorted(made)
    default = await client.request({"type": "list_tables"}, "tables")
    assert len(default["tables"]) == 50 and default["next"] is not None
    expert = await client.request(
        {"type": "list_tables", "ai_level": "expert", "open_seats": True, "limit": 100}, "tables"
    )
    assert sorted(t["table_id"] for t in expert["tables"]) == sorted(made[3::3])  # 0 plays
    await client.send({"type": "list_tables", "after": "nonsense"})
    assert (await client.until(lambda m: m["type"] == "error"))["code"] == "bad_cursor"


async def test_a_lobby_flood_at_2000_tables_does_not_slow_a_bystander(node: Start) -> None:
    """One connection asks for the lobby 40 times a second (within the rate limit) while
    2,000 tables exist; another connection's pings are answered promptly."""
    app = await node(tables_per_connection=0, tables_per_address=0)
    for _ in range(2000):  # the set-up, not the attack: straight to the node
        await app.node.create_table(m.TableOptions())
    flooder = await WireClient.open(ws_url(app))
    bystander = await WireClient.open(ws_url(app))
    stop = asyncio.Event()
    sizes: list[int] = []

    async def flood() -> None:
        async with connect(ws_url(app), max_size=2**24) as ws:
            await ws.send('{"type": "hello", "protocol": 1}')
            await ws.recv()
            while not stop.is_set():
                await ws.send('{"type": "list_tables"}')
                sizes.append(len(await ws.recv()))
                await asyncio.sleep(1 / 40)

    flooding = asyncio.create_task(flood())
    waits = []
    for _ in range(40):
        start = time.perf_counter()
        await bystander.request({"type": "ping"}, "pong")
        waits.append(time.perf_counter() - start)
        await asyncio.sleep(0.05)
    stop.set()
    await flooding
    await flooder.close()
    print(
        f"\nlobby flood at 2000 tables: reply {max(sizes)} bytes, bystander ping"
        f" median {statistics.median(waits) * 1000:.1f} ms, max {max(waits) * 1000:.1f} ms"
    )
    assert max(sizes) < 100_000  # one page, not 10 MB
    assert max(waits) < 1.0


@pytest.mark.parametrize("cap", [5])
async def test_one_address_may_hold_only_so_many_connections(node: Start, cap: int) -> None:
    app = await node(connections_per_address=cap)
    held = [await WireClient.open(ws_url(app)) for _ in range(cap)]
    with pytest.raises(InvalidStatus) as refused:
        await WireClient.open(ws_url(app))
    assert refused.value.response.status_code == 429
    await held[0].close()
    async with asyncio.timeout(5):
        while True:  # its place is free once the server has seen it close
            try:
                await WireClient.open(ws_url(app))
                break
            except InvalidStatus:
                await asyncio.sleep(0.05)
