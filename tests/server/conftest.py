"""Fixtures: a real server node on 127.0.0.1:0, and clients that speak the wire protocol.

Every test that uses ``app`` (or ``url``) runs twice: on the memory store, and
on the Redis store (marked ``redis``) with a dedicated database flushed before and
after the test (the shared test Redis, which ``tasks.py test`` starts when needed).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import pytest
from redis.asyncio import Redis

from server.app import App
from server.settings import Settings

from .wire import close_all

if TYPE_CHECKING:
    from server.node.archive import Archive  # SQLAlchemy only where a test keeps a history

# TAROT_TEST_REDIS names another shared Redis (e.g. one per work tree run side by side).
SHARED_REDIS = os.environ.get("TAROT_TEST_REDIS", "redis://127.0.0.1:6379")
REDIS_TEST_URL = f"{SHARED_REDIS}/13"


# The stores a node's tests run on: memory, and Redis (marked ``redis``).
STORES = ["memory", pytest.param("redis", marks=pytest.mark.redis)]


@contextlib.asynccontextmanager
async def running_app(
    store: str, settings: Settings, archive: Archive | None = None
) -> AsyncIterator[App]:
    """A node on ``store`` ("memory" or "redis": the test database, flushed before and
    after), stopped at the end."""
    redis_url = REDIS_TEST_URL if store == "redis" else None
    if redis_url is not None:
        await flush(redis_url)
    running = await App.start(dataclasses.replace(settings, redis_url=redis_url), archive=archive)
    try:
        yield running
    finally:
        await running.stop(drain_seconds=0)
        if redis_url is not None:
            await flush(redis_url)


@pytest.fixture(params=STORES)
async def app(request: pytest.FixtureRequest) -> AsyncIterator[App]:
    settings = Settings(port=0, next_deal_seconds=30, lease_ms=600)
    async with running_app(request.param, settings) as running:
        yield running


async def flush(url: str) -> None:
    client: Redis = Redis.from_url(url)
    try:
        await client.flushdb()
    finally:
        await client.aclose()


@pytest.fixture
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sign-ups hash with the cheapest argon2: a test signs up several accounts
    (``pytestmark = pytest.mark.usefixtures("cheaper_argon2")``)."""
    from argon2 import PasswordHasher

    from server.history import accounts  # SQLAlchemy only where a test keeps a history

    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


@pytest.fixture
def url(app: App) -> str:
    return f"ws://127.0.0.1:{app.port}/"


@pytest.fixture(autouse=True)
async def close_clients() -> AsyncIterator[None]:
    """Every wire client a test opened is closed, even when the test fails."""
    yield
    await close_all()
