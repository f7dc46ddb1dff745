"""The lobby's lists in the store (``server.store.lobby_index``): a table is in exactly the
lists its data says, after its creation, a seat taken, its close, its removal, a change
made by another node, and on a Redis Cluster, where the lists follow the commit."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.crc import key_slot

from protocol import models as m
from server.store import lobby_index as li
from server.store.base import TableStore
from server.store.memory import MemoryStore
from server.store.redis import keys
from server.store.redis.store import RedisStore
from server.table.data import SeatData, TableData

from ..server.wire import WireClient
from .conftest import NodeFactory
from .servers import Cluster, RedisServer

HUMAN = SeatData(occupant="human", name="ann", token_hash="h")


def table(table_id: str, created_ms: int, **options: Any) -> TableData:
    return TableData(table_id=table_id, options=m.TableOptions(**options), created_ms=created_ms)


def changed(data: TableData, **changes: object) -> TableData:
    return data.model_copy(update={"version": data.version + 1, **changes})


async def lists(store: TableStore, table_id: str) -> list[str]:
    """The lists ``table_id`` is in, read from the store's lists themselves."""
    return [name for name in li.LISTS if table_id in await store.lobby_ids(name)]


async def shown(store: TableStore, listing: str = li.OPEN) -> list[str]:
    page = await store.lobby_page(listing, "", 100)
    return [summary.table_id for _, summary in page if summary is not None]


@pytest.fixture(params=["memory", "redis"])
async def store(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[TableStore]:
    made: TableStore = (
        MemoryStore() if request.param == "memory" else await RedisStore.connect(redis_url)
    )
    try:
        yield made
    finally:
        await made.close()


async def test_a_new_public_table_is_listed_with_its_seats_free_and_a_private_one_is_not(
    store: TableStore,
) -> None:
    await store.create(table("pub", 2, ai_level="expert"))
    await store.create(table("priv", 1, private=True))
    assert await lists(store, "pub") == [
        "live",
        "idle",
        "open",
        "seats",
        "open:expert",
        "seats:expert",
    ]
    assert await lists(store, "priv") == ["live", "idle"]
    page = await store.lobby_page(li.SEATS, "", 10)
    assert page == [(li.member_at(2, "pub"), table("pub", 2, ai_level="expert").summary())]
    assert await store.lobby_count(li.LIVE) == 2


async def test_a_page_is_in_creation_order_from_a_member_on(store: TableStore) -> None:
    for i, created in enumerate([30, 10, 20, 10]):
        await store.create(table(f"t{i}", created))
    assert await shown(store) == ["t1", "t3", "t2", "t0"]
    page = await store.lobby_page(li.OPEN, li.member_at(10, "t3"), 1)
    assert [member for member, _ in page] == [li.member_at(20, "t2")]
    assert await store.lobby_ids(li.IDLE, li.created_before(20)) == ["t1", "t3"]


async def test_a_seat_taken_moves_the_table_out_of_the_idle_and_full_lists(
    store: TableStore,
) -> None:
    data = table("t1", 5)
    await store.create(data)
    one = changed(data, seats=[HUMAN, *data.seats[1:]])
    await store.commit(one, [])
    assert await lists(store, "t1") == ["live", "open", "seats", "open:basic", "seats:basic"]
    full = changed(one, seats=[HUMAN] * 4)
    await store.commit(full, [])
    assert await lists(store, "t1") == ["live", "open", "open:basic"]
    (_, summary), *_ = await store.lobby_page(li.OPEN, "", 10)
    assert summary == full.summary()  # the summary follows the commit too
    playing = changed(full, status="playing")
    await store.commit(playing, [])
    assert await lists(store, "t1") == ["live", "playing", "open", "open:basic"]
    assert await store.playing_tables() == ["t1"]


async def test_a_closed_table_leaves_every_list_and_so_does_a_removed_one(
    store: TableStore,
) -> None:
    a, b = table("a", 1), table("b", 2)
    await store.create(a)
    await store.create(b)
    await store.commit(changed(a, status="finished"), [])
    assert await lists(store, "a") == []
    assert await shown(store) == ["b"]
    await store.delete("b")
    assert await lists(store, "b") == []
    assert await store.lobby_count(li.LIVE) == 0


async def test_a_change_another_node_commits_moves_the_table_in_the_first_nodes_lobby(
    redis_url: str,
) -> None:
    """Node a created the table and died (its lease lost); node b, which never held the
    table, takes the lease and seats a player: the lists and summary follow b's commit."""
    a, b = await RedisStore.connect(redis_url), await RedisStore.connect(redis_url)
    try:
        data = table("t1", 1)
        await a.create(data)
        assert await a.acquire_lease("t1", "a", 200)
        await a.close()  # a dies: its lease runs out
        loaded = await b.load("t1")
        assert loaded is not None
        while not await b.acquire_lease("t1", "b", 5000):
            await asyncio.sleep(0.05)
        seated = changed(loaded, seats=[HUMAN] * 4)
        await b.commit(seated, [])
        assert await lists(b, "t1") == ["live", "open", "open:basic"]
        assert await b.lobby_page(li.OPEN, "", 10) == [(li.member(data), seated.summary())]
    finally:
        await b.close()


async def test_a_table_found_expired_leaves_the_lists(redis_url: str) -> None:
    store = await RedisStore.connect(redis_url)
    try:
        await store.create(table("t1", 1))
        await store.create(table("t2", 2))
        await store.client.delete(keys.state("t1"))  # its TTL ran out
        assert await store.lobby_page(li.OPEN, "", 10) == [
            (li.member_at(1, "t1"), None),
            (li.member_at(2, "t2"), table("t2", 2).summary()),
        ]
        assert await lists(store, "t1") == []
    finally:
        await store.close()


async def test_the_lists_follow_each_commit_on_a_redis_cluster(cluster: Cluster) -> None:
    store = await RedisStore.connect(cluster.url)
    try:
        assert not store.lists_in_script  # the lists' slot is not the tables'
        made = [table(f"t{i}", i) for i in range(6)]  # over every shard
        for data in made:
            await store.create(data)
        assert await shown(store) == [f"t{i}" for i in range(6)]
        await store.commit(changed(made[2], seats=[HUMAN] * 4), [])
        await store.commit(changed(made[3], status="finished"), [])
        assert await shown(store, li.SEATS) == ["t0", "t1", "t4", "t5"]
        assert await lists(store, "t3") == []
    finally:
        await store.close()


async def test_an_entry_a_dead_node_left_behind_on_a_cluster_is_not_shown(
    cluster: Cluster,
) -> None:
    """A node that died between a commit and its lists' update left the table in a list
    its data no longer puts it in: the page checks the table's own line."""
    store = await RedisStore.connect(cluster.url)
    try:
        data = table("t1", 1)
        await store.create(data)
        full = changed(data, seats=[HUMAN] * 4)
        await store.commit(full, [])
        await store.client.zadd(keys.lobby_list(li.SEATS), {li.member(data): 0})  # left behind
        assert await store.lobby_page(li.SEATS, "", 10) == [(li.member(data), None)]
        assert await store.lobby_page(li.OPEN, "", 10) == [(li.member(data), full.summary())]
    finally:
        await store.close()


async def test_the_lists_are_in_one_slot_and_written_with_the_commit_on_one_redis(
    redis_url: str,
) -> None:
    store = await RedisStore.connect(redis_url)
    client: Redis = Redis.from_url(redis_url)
    try:
        assert store.lists_in_script
        assert len({key_slot(keys.lobby_list(name).encode()) for name in li.LISTS}) == 1
        await store.create(table("t1", 1))
        assert await client.hget(keys.state("t1"), "member") == li.member_at(1, "t1").encode()
    finally:
        await client.aclose()
        await store.close()


async def table_reads(url: str) -> int:
    """The scripts Redis ran so far (a table is read by one)."""
    client: Redis = Redis.from_url(url)
    try:
        stats = await client.info("commandstats")
        return sum(int(v["calls"]) for k, v in stats.items() if k.startswith("cmdstat_eval"))
    finally:
        await client.aclose()


async def test_a_lobby_page_reads_the_pages_tables_not_every_table(
    own_redis: RedisServer, nodes: NodeFactory
) -> None:
    store = await RedisStore.connect(own_redis.url)
    try:
        for i in range(0, 400, 100):
            await asyncio.gather(*(store.create(table(f"t{j:03d}", j)) for j in range(i, i + 100)))
    finally:
        await store.close()
    node = nodes(own_redis.url, "a")
    client = await WireClient.open(node.url)
    try:
        before = await table_reads(own_redis.url)
        first = await client.request({"type": "list_tables", "limit": 10}, "tables")
        second = await client.request(
            {"type": "list_tables", "limit": 10, "after": first["next"]}, "tables"
        )
        reads = await table_reads(own_redis.url) - before
    finally:
        await client.close()
    assert [t["table_id"] for t in first["tables"] + second["tables"]] == [
        f"t{j:03d}" for j in range(20)
    ]
    assert reads < 60  # 11 a page, and the node's own background work; was 400 a page


async def test_tables_stored_before_the_lists_enter_them_when_a_node_starts(
    redis_url: str,
) -> None:
    """A rolling upgrade: the tables an older node stored (no line, in no list) are listed,
    and those in play adopted, once a node of this version has started."""
    old = await RedisStore.connect(redis_url)
    try:
        waiting, playing = table("w", 1), table("p", 2).model_copy(update={"status": "playing"})
        for data in (waiting, playing):
            await old.create(data)
            await old.client.hdel(keys.state(data.table_id), "summary", "lists", "member")
        for name in li.LISTS:
            await old.client.delete(keys.lobby_list(name))
        await old.client.delete(keys.lobby_list("indexed"))
        assert await shown(old) == []
    finally:
        await old.close()
    new = await RedisStore.connect(redis_url)
    try:
        assert await shown(new) == ["w", "p"]
        assert await new.playing_tables() == ["p"]
        assert await new.index_old_tables() == 0  # once per store
    finally:
        await new.close()


async def test_a_table_in_play_found_expired_leaves_the_playing_list(redis_url: str) -> None:
    """Else every node's lease sweep would try to adopt it for ever."""
    store = await RedisStore.connect(redis_url)
    try:
        data = table("t1", 1)
        await store.create(data)
        await store.commit(changed(data, status="playing"), [])
        assert await store.playing_tables() == ["t1"]
        await store.client.delete(keys.state("t1"))  # its TTL ran out
        assert await store.playing_tables() == []
        assert await lists(store, "t1") == []
    finally:
        await store.close()
