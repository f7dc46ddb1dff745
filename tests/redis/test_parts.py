"""A table is stored in parts (server/store/redis/layout.py): a commit writes what changed since
its parent, the deal's new actions appended, and publishes that delta; a follower that has
the parent applies it, any other reads the table. Tables an older node stored whole (one
``data`` field) still load, and play on in parts."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis

from server.store.base import StaleVersion
from server.store.redis import keys
from server.store.redis.layout import published
from server.store.redis.store import RedisStore
from server.table.data import DealData, TableData, next_commits

from .test_store import Heard, events, redis, table

PLAYS = [{"seat": s % 4, "play": card} for s, card in enumerate(["KH", "QH", "1H", "EX", "T21"])]


def dealt() -> TableData:
    deal = DealData(number=1, dealer=0, seed="00" * 16)
    return table(status="playing", deal=deal, commits=next_commits([]))


def played(data: TableData, count: int = 1, **changes: Any) -> TableData:
    """The next version: ``count`` more plays (and ``changes``), as a runtime commits it."""
    assert data.deal is not None
    actions = [*data.deal.actions, *PLAYS[len(data.deal.actions) :][:count]]
    deal = data.deal.model_copy(update={"actions": actions})
    update = {"version": data.version + 1, "seq": data.seq + 1, "deal": deal, **changes}
    return data.model_copy(update={**update, "commits": next_commits(data.commits)})


async def commit(store: RedisStore, data: TableData) -> TableData:
    await store.commit(data, events(data.seq, 1))
    return data


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[Redis]:
    made: Redis = Redis.from_url(redis_url)
    try:
        yield made
    finally:
        await made.aclose()


async def listen(client: Redis, table_id: str) -> tuple[Any, asyncio.Queue[bytes]]:
    """A raw subscriber of the table's updates, registered as a follower."""
    pubsub = client.pubsub()
    await pubsub.ssubscribe(keys.updates(table_id))
    await client.hset(keys.followers(table_id), "listener", str(2**50))
    heard: asyncio.Queue[bytes] = asyncio.Queue()

    async def read() -> None:
        async for message in pubsub.listen():
            if message["type"] == "smessage":
                heard.put_nowait(message["data"])

    return asyncio.get_running_loop().create_task(read()), heard


async def test_a_commit_appends_the_new_actions_and_publishes_only_what_changed(
    redis_url: str, client: Redis
) -> None:
    store = await redis(redis_url)
    reader, heard = await listen(client, "t1")
    try:
        data = dealt()
        await store.create(data)
        v1 = await commit(store, played(data))
        head = await client.hget(keys.state("t1"), "head")
        v2 = await commit(store, played(v1, 2))
        assert await client.hget(keys.state("t1"), "head") == head  # not rewritten
        stored = [json.loads(a) for a in await client.lrange(keys.actions("t1"), 0, -1)]
        assert stored == PLAYS[:3] and not await client.hexists(keys.state("t1"), "data")
        async with asyncio.timeout(5):
            first, second = await heard.get(), await heard.get()
        delta = published(second)
        assert delta.head == b"" and not delta.replaces
        assert [json.loads(a) for a in delta.actions] == PLAYS[1:3]
        assert delta.apply(published(first).apply(data)) == v2
        assert await store.load("t1") == v2
        v3 = await commit(store, played(v2, 0, dealer=2))  # a head change: sent whole
        async with asyncio.timeout(5):
            assert published(await heard.get()).head != b""
        assert await store.load("t1") == v3
    finally:
        reader.cancel()
        await store.close()


async def test_a_follower_applies_deltas_on_its_version_and_reads_the_table_otherwise(
    redis_url: str,
) -> None:
    mine, other = await redis(redis_url), await redis(redis_url)
    try:
        data = dealt()
        await mine.create(data)
        theirs = Heard()
        await other.subscribe("t1", theirs)
        assert await other.load("t1") == data  # what a runtime reads when it follows
        v1 = await commit(mine, played(data))
        v2 = await commit(mine, played(v1))
        assert (await theirs.version(2)).table == v2
        assert (await theirs.version(1)).table == v1
        other.stored.pop("t1")  # as if it missed a version: its delta cannot apply
        v3 = await commit(mine, played(v2))
        heard = await theirs.version(3)
        assert heard.table == v3 and heard.events == events(v3.seq, 1)
        assert other.stored["t1"] == v3  # read again: the next delta applies
        v4 = await commit(mine, played(v3))
        assert (await theirs.version(4)).table == v4
    finally:
        await mine.close()
        await other.close()


async def test_a_table_an_older_node_stored_whole_loads_and_plays_on_in_parts(
    redis_url: str, client: Redis
) -> None:
    v1 = played(dealt(), 2)
    # The layout of before: the whole JSON in 'data', and the fields the scripts read.
    fields: dict[Any, Any] = {"data": v1.model_dump_json(), "version": 1, "seq": v1.seq}
    await client.hset(
        keys.state("t1"), mapping={**fields, "commit": v1.commit, "status": "playing"}
    )
    store = await redis(redis_url)
    try:
        assert await store.load("t1") == v1
        assert [t.table_id for t in await store.list_tables()] == []  # not in the lobby
        v2 = await commit(store, played(v1))
        assert not await client.hexists(keys.state("t1"), "data")
        assert len(await client.lrange(keys.actions("t1"), 0, -1)) == 3
        assert await store.load("t1") == v2
        v3 = await commit(store, played(v2))
        assert await store.load("t1") == v3
        assert await store.settle(v2)  # its commit is still found among the recent ones
    finally:
        await store.close()


async def test_an_older_nodes_whole_write_is_never_appended_to(
    redis_url: str, client: Redis
) -> None:
    store = await redis(redis_url)
    try:
        data = dealt()
        await store.create(data)
        v1 = await commit(store, played(data))
        # An older node commits v2: the whole JSON in 'data', the parts left as they were.
        v2 = played(v1)
        mapping: dict[Any, Any] = {"data": v2.model_dump_json(), "version": 2}
        await client.hset(keys.state("t1"), mapping={**mapping, "commit": v2.commit})
        store.remember(v2)  # even a node that takes the parts for v2's does not append
        v3 = played(v2)
        with pytest.raises(StaleVersion):
            await store.commit(v3, events(v3.seq, 1))
        assert await store.load("t1") == v2  # the runtime reads again, and commits whole
        await store.commit(v3, events(v3.seq, 1))
        assert await store.load("t1") == v3
        assert not await client.hexists(keys.state("t1"), "data")
    finally:
        await store.close()


async def test_the_lobby_reads_again_only_the_tables_this_node_does_not_have(
    redis_url: str,
) -> None:
    mine, other = await redis(redis_url), await redis(redis_url)
    try:
        data = dealt()
        await mine.create(data)
        await other.create(dealt().model_copy(update={"table_id": "t2"}))
        v1 = await commit(mine, played(data))
        listed = {t.table_id: t for t in await mine.list_tables()}
        assert listed["t1"] is v1  # the version it made: not parsed again
        assert listed["t2"] == await other.load("t2")
        v2 = await commit(other, played(v1))  # another node moves t1 on
        assert {t.table_id: t for t in await mine.list_tables()}["t1"] == v2
    finally:
        await mine.close()
        await other.close()
