"""Fixtures of the Redis tests: the shared Redis (a dedicated db, flushed per test),
Redis servers and clusters of the test's own, and server node processes."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from ..server.wire import close_all
from .servers import SHARED_REDIS, Cluster, NodeProcess, RedisServer

SHARED_DB_URL = f"{SHARED_REDIS}/14"

NodeFactory = Callable[..., NodeProcess]


async def flush(url: str) -> None:
    client: Redis = Redis.from_url(url)
    try:
        await client.flushdb()
    finally:
        await client.aclose()


@pytest.fixture
async def redis_url() -> AsyncIterator[str]:
    """The shared Redis's test database, empty at the start and the end of the test."""
    await flush(SHARED_DB_URL)
    try:
        yield SHARED_DB_URL
    finally:
        await flush(SHARED_DB_URL)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A Redis of the test's own (append-only file in tmp_path), which it may stop and restart."""
    server = RedisServer(tmp_path / "redis").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    started = Cluster(tmp_path / "cluster")
    try:
        yield started.start()
    finally:
        started.stop()


@pytest.fixture
def replicated_cluster(tmp_path: Path) -> Iterator[Cluster]:
    """A Redis Cluster of three masters with one replica each, and a short node
    time-out (1 s): a dead master's replica takes over within a few seconds."""
    started = Cluster(tmp_path / "cluster", replicas=1, node_timeout_ms=1000)
    try:
        yield started.start()
    finally:
        started.stop()


@pytest.fixture
async def nodes(tmp_path: Path) -> AsyncIterator[NodeFactory]:
    """Start ``tarot serve`` processes: ``nodes(url, "a", *flags)``; all ended after the test
    (after the test's wire clients are closed, so that they drain at once)."""
    started: list[NodeProcess] = []

    def start(redis_url: str, node_id: str, *extra: str) -> NodeProcess:
        node = NodeProcess(redis_url, node_id, tmp_path / f"{node_id}.log", *extra)
        started.append(node)
        return node.start()

    try:
        yield start
    finally:
        await close_all()
        for node in started:
            node.stop()
