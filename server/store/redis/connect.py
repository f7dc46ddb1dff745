"""How a node connects to Redis (one server, or any node of a cluster): its clients,
their pools and their retry policies, each chosen for what goes through it."""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from redis.asyncio import ConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.exceptions import (
    AuthenticationError,
    AuthenticationWrongNumberOfArgsError,
    NoPermissionError,
    RedisClusterException,
    RedisError,
    ResponseError,
)

from server.store.base import StoreRefused, StoreUnavailable

from .writer import Writer, plain_url

log = logging.getLogger("tarot.redis")
Client = Redis | RedisCluster
FAILURES = (RedisError, RedisClusterException, OSError, TimeoutError)
# What Redis answers to a node it will never serve as configured (before the outages,
# since AuthenticationError is a ConnectionError).
PERMANENT = (
    AuthenticationError,
    AuthenticationWrongNumberOfArgsError,
    NoPermissionError,
    ResponseError,
)


@dataclass(frozen=True, slots=True)
class Clients:
    client: Client  # every call but commits
    writer: Client | Writer  # commits (see ``open_clients``)
    pubsub: Callable[[str, int], Redis]  # a shard's (host, port) -> its pub/sub connection


async def open_clients(url: str, max_connections: int, wait_seconds: float) -> Clients:
    """Wait for Redis at ``url`` (up to ``wait_seconds``), then open the node's clients."""
    retry = Retry(ExponentialBackoff(cap=0.25, base=0.025), 2)
    common: dict[str, Any] = {
        "socket_timeout": 1.0,
        "socket_connect_timeout": 1.0,
        "health_check_interval": 5,
        "retry": retry,
    }
    probe: Redis = Redis.from_url(url, **common)
    try:
        cluster = await wait_for_redis(probe, wait_seconds)
    finally:
        await probe.aclose()
    client: Client
    writer: Client | Writer
    if cluster:
        client = RedisCluster.from_url(url, max_connections=max_connections, **common)
        await client.initialize()
        writer = client
    else:
        # No socket timeout and no blocking pool: ``RedisStore.call`` already
        # bounds each call by its time-out and makes callers wait for one of the
        # ``max_connections`` connections; a second timer per read and a second
        # wait cost ~40 µs of CPU per command (measured).
        unbounded = {**common, "socket_timeout": None}
        client = Redis.from_pool(
            ConnectionPool.from_url(url, max_connections=max_connections, **unbounded)
        )
        # Commits on connections that never resend: a command resent after a lost
        # reply hides that the first one may have landed, and ``commit`` must know
        # whether a failed call ever left the node (``redis_store._never_sent``). Over
        # TCP, the node's own pipelined connection (``writer``: ~70 µs less CPU
        # per commit); else redis-py's.
        if plain_url(url):
            writer = Writer(url, connect_timeout=common["socket_connect_timeout"])
        else:
            writes = {**unbounded, "retry": Retry(NoBackoff(), 0)}
            writer = Redis.from_pool(
                ConnectionPool.from_url(url, max_connections=max_connections, **writes)
            )

    def pubsub(host: str, port: int) -> Redis:
        # Its own connection, no silent reconnection: a lost pub/sub
        # connection must be seen, so that missed updates are fetched.
        pool = ConnectionPool.from_url(url, **{**common, "retry": Retry(NoBackoff(), 0)})
        if cluster:  # the shard's node, with the URL's credentials
            pool.connection_kwargs.update(host=host, port=port)
        return Redis.from_pool(pool)

    return Clients(client, writer, pubsub)


async def wait_for_redis(probe: Redis, wait_seconds: float) -> bool:
    """Wait until Redis answers; True when it is a cluster node. Redis 7+ is needed."""
    deadline = time.monotonic() + wait_seconds
    for attempt in itertools.count():
        try:
            info = await probe.info()
            break
        except PERMANENT as e:  # retrying cannot help: say it now, and what to change
            raise StoreRefused(refusal(e)) from e
        except FAILURES as e:
            if time.monotonic() > deadline:
                raise StoreUnavailable(f"redis does not answer: {e}") from e
            if attempt % 10 == 0:
                log.warning("waiting for redis: %s", e)
            await asyncio.sleep(0.5)
    major = int(str(info.get("redis_version", "0")).split(".")[0])
    if major < 7:
        raise StoreUnavailable(f"redis 7 or later is needed, not {info.get('redis_version')}")
    return bool(info.get("cluster_enabled"))


def refusal(error: RedisError) -> str:
    """What a permanent refusal means, in one line."""
    text = (str(error).splitlines()[0] if str(error) else type(error).__name__).rstrip(".")
    if (isinstance(error, AuthenticationError) and "HELLO" in text) or "NOAUTH" in text:
        text = "authentication required"
    if isinstance(error, AuthenticationError | AuthenticationWrongNumberOfArgsError):
        hint = "the password (or user and password) in the URL: redis://[USER]:PASSWORD@HOST"
    elif "DB index" in text:
        hint = "a database number the server has (redis://HOST:PORT/0; see its 'databases')"
    else:
        hint = "the Redis URL and the server's configuration"
    return f"redis refuses this node: {text}; check {hint}"
