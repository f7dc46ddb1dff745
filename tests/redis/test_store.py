"""The ``TableStore`` contract, on the memory store and on Redis, and what only Redis adds:
several nodes on one store, hash-tagged keys, TTLs, outages."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from redis.asyncio import Redis
from redis.crc import key_slot

from protocol import models as m
from server.store.base import OutcomeUnknown, StaleVersion, StoreUnavailable, TableStore
from server.store.memory import MemoryStore
from server.store.redis import keys
from server.store.redis.store import RedisStore
from server.table.commits import Update
from server.table.data import StoredEvent, TableData

from .servers import RedisServer


def table(table_id: str = "t1", **changes: object) -> TableData:
    return TableData(table_id=table_id, options=m.TableOptions(), created_ms=1).model_copy(
        update=changes
    )


def events(first: int, count: int) -> list[StoredEvent]:
    return [
        StoredEvent(seq=s, audience=None if s % 2 else (s % 4,), event={"kind": "n", "n": s})
        for s in range(first, first + count)
    ]


async def next_version(store: TableStore, data: TableData, count: int = 2) -> TableData:
    new = data.model_copy(update={"version": data.version + 1, "seq": data.seq + count})
    await store.commit(new, events(data.seq + 1, count))
    return new


@pytest.fixture(params=["memory", "redis"])
async def store(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[TableStore]:
    made: TableStore = MemoryStore() if request.param == "memory" else await redis(redis_url)
    try:
        yield made
    finally:
        await made.close()


async def redis(url: str, **options: int) -> RedisStore:
    return await RedisStore.connect(url, **options)


class Heard:
    """A listener that keeps the updates it hears."""

    def __init__(self) -> None:
        self.updates: list[Update] = []
        self.changed = asyncio.Event()

    def __call__(self, update: Update) -> None:
        self.updates.append(update)
        self.changed.set()

    async def version(self, version: int) -> Update:
        async with asyncio.timeout(10):
            while not any(u.table.version == version for u in self.updates):
                self.changed.clear()
                await self.changed.wait()
        return next(u for u in self.updates if u.table.version == version)


# ------------------------------------------------------------ the contract


async def test_a_created_table_loads_back_equal(store: TableStore) -> None:
    data = table()
    await store.create(data)
    assert await store.load("t1") == data
    assert await store.load("nope") is None


async def test_a_table_cannot_be_created_twice(store: TableStore) -> None:
    await store.create(table())
    with pytest.raises(StaleVersion):
        await store.create(table(seq=5))
    assert await store.load("t1") == table()


async def test_a_commit_must_follow_the_stored_version_or_changes_nothing(
    store: TableStore,
) -> None:
    data = table()
    await store.create(data)
    v1 = await next_version(store, data)
    with pytest.raises(StaleVersion):
        await store.commit(data.model_copy(update={"version": 1, "seq": 9}), events(1, 9))
    with pytest.raises(StaleVersion):
        await store.commit(v1.model_copy(update={"version": 3, "seq": 9}), events(3, 7))
    assert await store.load("t1") == v1
    assert await store.events_since("t1", 0) == events(1, 2)


async def test_events_since_returns_the_later_events_in_order(store: TableStore) -> None:
    data = table()
    await store.create(data)
    for _ in range(3):
        data = await next_version(store, data, 3)
    assert await store.events_since("t1", 0) == events(1, 9)
    assert await store.events_since("t1", 4) == events(5, 5)
    assert await store.events_since("t1", 9) == []


async def test_a_commit_returns_its_update_and_no_listener_hears_it_before(
    store: TableStore,
) -> None:
    data = table()
    await store.create(data)
    heard = Heard()
    await store.subscribe("t1", heard)
    v1 = data.model_copy(update={"version": 1, "seq": 3})
    made = await store.commit(v1, events(1, 3))
    assert made == Update(v1, events(1, 3))  # the committer applies it itself
    assert heard.updates == []  # its listeners (the committer's own) had it not before
    await store.unsubscribe("t1", heard)


async def test_the_memory_stores_listeners_hear_each_commit_with_its_events() -> None:
    store = MemoryStore()  # nodes sharing it in one process: each hears the others
    data = table()
    await store.create(data)
    heard = Heard()
    await store.subscribe("t1", heard)
    v1 = await next_version(store, data, 3)
    update = await heard.version(1)
    assert update.table == v1
    assert update.events == events(1, 3)


async def test_the_lobby_lists_every_table(store: TableStore) -> None:
    for i in range(3):
        await store.create(table(f"t{i}", created_ms=i))
    assert sorted(t.table_id for t in await store.list_tables()) == ["t0", "t1", "t2"]


async def test_the_tables_in_play_are_listed_without_reading_them(store: TableStore) -> None:
    for i in range(3):
        await store.create(table(f"t{i}", created_ms=i))
    assert await store.playing_tables() == []
    started = table("t1", created_ms=1)
    await store.commit(started.model_copy(update={"version": 1, "status": "playing"}), [])
    assert await store.playing_tables() == ["t1"]
    done = started.model_copy(update={"version": 2, "status": "finished"})
    await store.commit(done, [])
    assert await store.playing_tables() == []


async def test_a_lease_has_one_holder_until_released_or_expired(store: TableStore) -> None:
    assert await store.acquire_lease("t1", "a", 60_000)
    assert not await store.acquire_lease("t1", "b", 60_000)
    assert await store.acquire_lease("t1", "a", 60_000)  # renewal
    await store.release_lease("t1", "b")  # not b's: nothing happens
    assert not await store.acquire_lease("t1", "b", 60_000)
    await store.release_lease("t1", "a")
    assert await store.acquire_lease("t1", "b", 50)
    async with asyncio.timeout(10):
        while not await store.acquire_lease("t1", "a", 60_000):
            await asyncio.sleep(0.02)


async def test_many_leases_are_taken_and_renewed_at_once(store: TableStore) -> None:
    assert await store.acquire_leases([], "a", 60_000) == []
    assert await store.acquire_lease("t2", "b", 60_000)
    ids = ["t1", "t2", "t3"]
    assert await store.acquire_leases(ids, "a", 60_000) == [True, False, True]
    assert await store.acquire_leases(ids, "a", 60_000) == [True, False, True]  # renewals
    assert await store.acquire_leases(ids, "b", 60_000) == [False, True, False]
    await store.release_lease("t1", "a")
    assert await store.acquire_leases(ids, "b", 60_000) == [True, True, False]


async def test_the_store_answers_ping(store: TableStore) -> None:
    assert await store.ping()


# ------------------------------------------------------------ Redis: several nodes


async def test_a_commit_reaches_every_node_subscribed_to_the_table(redis_url: str) -> None:
    stores = [await redis(redis_url) for _ in range(3)]
    try:
        data = table()
        await stores[0].create(data)
        heard = [Heard() for _ in stores]
        for store, listener in zip(stores, heard, strict=True):
            await store.subscribe("t1", listener)
        v1 = await next_version(stores[1], data)
        for listener in (heard[0], heard[2]):  # the committer applies what it returned
            assert (await listener.version(1)).table == v1
    finally:
        for store in stores:
            await store.close()


async def test_a_node_never_hears_its_own_commits_back(redis_url: str) -> None:
    """Another node follows the table, so each commit is published; its echo to the
    committer is dropped in the store (by version or commit id), never handed on."""
    mine, other = await redis(redis_url), await redis(redis_url)
    try:
        data = table()
        await mine.create(data)
        heard, theirs = Heard(), Heard()
        await mine.subscribe("t1", heard)
        await other.subscribe("t1", theirs)
        for _ in range(5):
            data = await next_version(mine, data)
        await theirs.version(5)
        await asyncio.sleep(0.1)  # any echo is back by now
        assert heard.updates == [] and mine.updates.in_flight == {}
    finally:
        await mine.close()
        await other.close()


async def test_exactly_one_of_many_concurrent_commits_of_one_version_wins(
    redis_url: str,
) -> None:
    stores = [await redis(redis_url) for _ in range(4)]
    try:
        data = table()
        await stores[0].create(data)
        attempts = [
            data.model_copy(update={"version": 1, "seq": 1, "dealer": i}) for i in range(20)
        ]

        async def attempt(i: int) -> bool:
            try:
                await stores[i % 4].commit(attempts[i], events(1, 1))
            except StaleVersion:
                return False
            return True

        won = await asyncio.gather(*(attempt(i) for i in range(20)))
        assert sum(won) == 1
        assert await stores[0].load("t1") == attempts[won.index(True)]
        assert await stores[0].events_since("t1", 0) == events(1, 1)
    finally:
        for store in stores:
            await store.close()


# ------------------------------------------------------------ Redis: keys, TTLs


def test_every_key_of_a_table_sits_in_the_tables_slot() -> None:
    names = [keys.state("abc"), keys.events("abc"), keys.lease("abc"), keys.updates("abc")]
    names += [keys.actions("abc"), keys.followers("abc"), keys.fence("abc", "n:1")]
    assert {key_slot(n.encode()) for n in names} == {key_slot(b"table:abc")}
    assert keys.table_of_channel(keys.updates("abc")) == "abc"


async def test_a_finished_table_expires_and_leaves_the_lobby(redis_url: str) -> None:
    store = await redis(redis_url, finished_ttl_ms=300)
    client: Redis = Redis.from_url(redis_url)
    try:
        data = table()
        await store.create(data)
        v1 = await next_version(store, data)
        assert await client.pttl(keys.state("t1")) > 24 * 3600 * 1000  # idle TTL: days
        await store.commit(v1.model_copy(update={"version": 2, "status": "finished"}), [])
        assert 0 < await client.pttl(keys.state("t1")) <= 300
        assert 0 < await client.pttl(keys.events("t1")) <= 300
        async with asyncio.timeout(10):
            while await store.load("t1") is not None:
                await asyncio.sleep(0.05)
        assert await store.list_tables() == []
        assert await client.zscore(keys.LOBBY, "t1") is None
    finally:
        await client.aclose()
        await store.close()


# ------------------------------------------------------------ Redis: outages


async def test_callers_wait_for_a_connection_of_the_bounded_pool(redis_url: str) -> None:
    store = await redis(redis_url, max_connections=2)
    try:
        await store.create(table())
        loaded = await asyncio.gather(*(store.load("t1") for _ in range(50)))
        assert loaded == [table()] * 50
    finally:
        await store.close()


async def test_a_redis_too_slow_to_answer_is_unavailable(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis", "--enable-debug-command", "yes").start()
    store = await RedisStore.connect(server.url, op_timeout=0.3)
    sleeper: Redis = Redis.from_url(server.url)
    try:
        await store.create(table())
        asleep = asyncio.create_task(sleeper.execute_command("DEBUG", "SLEEP", "1"))  # type: ignore[no-untyped-call]
        await asyncio.sleep(0.1)
        with pytest.raises(StoreUnavailable, match="did not answer"):
            await store.load("t1")
        await asleep
        assert await store.load("t1") == table()
    finally:
        await sleeper.aclose()
        await store.close()
        server.stop()


async def test_redis_down_is_unavailable_and_the_store_recovers_by_itself(
    tmp_path: Path,
) -> None:
    server = RedisServer(tmp_path / "redis").start()
    store = await redis(server.url)
    other = await redis(server.url)
    try:
        data = table()
        await store.create(data)
        heard = Heard()
        await store.subscribe("t1", heard)
        first = await redis(server.url)  # another node, gone before the restart
        try:
            v1 = await next_version(first, data)
        finally:
            await first.close()
        await heard.version(1)
        server.stop()
        with pytest.raises(StoreUnavailable):
            await store.load("t1")
        # Sent on a connection Redis dropped: whether it landed cannot be told yet.
        with pytest.raises((StoreUnavailable, OutcomeUnknown)):
            await next_version(store, v1)
        assert not await store.ping()
        server.start()
        assert await store.load("t1") == v1  # nothing half written
        v2 = await next_version(other, v1)  # another node commits: we hear of it
        assert (await heard.version(2)).table == v2
        await next_version(other, v2)
        assert (await heard.version(3)).events == events(5, 2)
        assert await store.ping()
    finally:
        await other.close()
        await store.close()
        server.stop()
