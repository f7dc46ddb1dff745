"""The commits' own pipelined connection (server/store/redis/writer.py): each caller gets its own
reply, a script Redis forgot is loaded again, a failure to connect says so (the command
never left), and a caller that gives up closes the connection: the calls in flight on it
fail as lost, the next one connects again."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from server.store.base import StoreUnavailable
from server.store.redis.store import _never_sent
from server.store.redis.writer import Writer

from .servers import RedisServer, free_port


async def test_concurrent_calls_each_get_their_own_reply(redis_url: str) -> None:
    writer = Writer(redis_url)
    try:
        replies = await asyncio.gather(*(writer.call("ECHO", f"n{i}") for i in range(300)))
        assert replies == [f"n{i}".encode() for i in range(300)]
        with pytest.raises(ResponseError):
            await writer.call("NO-SUCH-COMMAND")
        assert await writer.call("ECHO", "still") == b"still"  # an error reply is one reply
    finally:
        await writer.aclose()


async def test_it_writes_to_the_urls_database(redis_url: str) -> None:
    writer, reader = Writer(redis_url), Redis.from_url(redis_url)
    try:
        await writer.call("SET", "written", "here")
        assert await reader.get("written") == b"here"
    finally:
        await writer.aclose()
        await reader.aclose()


async def test_a_script_redis_forgot_is_loaded_again(own_redis: RedisServer) -> None:
    writer = Writer(own_redis.url)
    try:
        assert await writer.evalsha("return ARGV[1]", [], ["a"]) == b"a"
        await writer.call("SCRIPT", "FLUSH")
        assert await writer.evalsha("return ARGV[1]", [], ["b"]) == b"b"
    finally:
        await writer.aclose()


async def failure(call: Awaitable[object]) -> StoreUnavailable:
    """The store's error for a call that failed (as ``RedisStore.call`` raises it)."""
    with pytest.raises(RedisConnectionError) as e:
        await call
    error = StoreUnavailable(str(e.value))
    error.__cause__ = e.value
    return error


async def test_a_redis_that_cannot_be_reached_is_never_sent_anything() -> None:
    writer = Writer(f"redis://127.0.0.1:{free_port()}/0")
    try:
        assert _never_sent(await failure(writer.call("PING")))
    finally:
        await writer.aclose()


async def test_a_caller_that_gives_up_closes_the_connection(redis_url: str) -> None:
    writer = Writer(redis_url)
    try:
        blocked = asyncio.ensure_future(writer.call("BLPOP", "nothing", "5"))
        behind = asyncio.ensure_future(writer.call("ECHO", "behind"))
        await asyncio.sleep(0.1)
        blocked.cancel()  # as the store's time-out does
        # In flight on the closed connection: it may have landed, so it was sent.
        assert not _never_sent(await failure(behind))
        assert await writer.call("ECHO", "again") == b"again"
    finally:
        await writer.aclose()
