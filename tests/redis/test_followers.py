"""A commit is published only when another node follows the table (``keys.followers``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from redis.asyncio import Redis

from server.store.redis import keys
from server.store.redis.store import RedisStore

from .test_store import Heard, next_version, table


@asynccontextmanager
async def observer(url: str, table_id: str) -> AsyncIterator[asyncio.Queue[bytes]]:
    """What is published on the table's channel (an onlooker, not a follower)."""
    client: Redis = Redis.from_url(url)
    pubsub = client.pubsub()
    heard: asyncio.Queue[bytes] = asyncio.Queue()
    await pubsub.ssubscribe(keys.updates(table_id))
    async with asyncio.timeout(10):  # subscribed once Redis says so, not after a nap
        while (await pubsub.get_message(timeout=1.0) or {}).get("type") != "ssubscribe":
            pass

    async def read() -> None:
        while True:
            message = await pubsub.get_message(timeout=1.0)
            if message and message["type"] == "smessage":
                heard.put_nowait(message["data"])

    reader = asyncio.create_task(read())
    try:
        yield heard
    finally:
        reader.cancel()
        await asyncio.gather(reader, return_exceptions=True)
        await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed from redis 8
        await client.aclose()


async def published(heard: asyncio.Queue[bytes], wait: float = 0.3) -> int:
    await asyncio.sleep(wait)
    count = heard.qsize()
    while not heard.empty():
        heard.get_nowait()
    return count


async def test_a_node_alone_with_a_table_publishes_nothing(redis_url: str) -> None:
    a = await RedisStore.connect(redis_url)
    b = await RedisStore.connect(redis_url)
    try:
        data = table()
        await a.create(data)
        await a.subscribe("t1", Heard())
        async with observer(redis_url, "t1") as heard:
            data = await next_version(a, data)
            assert await published(heard) == 0
            heard_by_b = Heard()
            await b.subscribe("t1", heard_by_b)  # another node follows: now it is published
            data = await next_version(a, data)
            assert await published(heard) == 1
            assert (await heard_by_b.version(2)).table == data
            data = await next_version(b, data)  # b's commit: a follows, so it is published
            assert await published(heard) == 1
    finally:
        await a.close()
        await b.close()


async def test_a_follower_that_leaves_or_dies_is_no_longer_counted(redis_url: str) -> None:
    a = await RedisStore.connect(redis_url)
    b = await RedisStore.connect(redis_url, follow_ttl_ms=300)
    c = await RedisStore.connect(redis_url)
    try:
        data = table()
        await a.create(data)
        await a.subscribe("t1", Heard())
        heard_by_c = Heard()
        await b.subscribe("t1", Heard())
        await c.subscribe("t1", heard_by_c)
        await asyncio.sleep(0.5)  # b renews itself every 50 ms: still there
        async with observer(redis_url, "t1") as heard:
            data = await next_version(a, data)
            assert await published(heard) == 1
            await c.unsubscribe("t1", heard_by_c)  # c leaves at once
            client: Redis = Redis.from_url(redis_url)
            try:
                followers = await client.hgetall(keys.followers("t1"))
            finally:
                await client.aclose()
            assert set(followers) == {a.store_id.encode(), b.store_id.encode()}
            await b.close()  # b dies without leaving: its registration runs out
            await asyncio.sleep(0.5)
            data = await next_version(a, data)
            assert await published(heard) == 0
    finally:
        await a.close()
        await b.close()
        await c.close()
