"""Fixtures: a real server node on 127.0.0.1:0, and clients that speak the wire protocol.

Every test that uses ``app`` (or ``url``) runs twice: on the memory store, and
on the Redis store (marked ``redis``) with a dedicated database flushed before and
after the test (the shared test Redis, which ``tasks.py test`` starts when needed).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from server.app import App
from server.settings import Settings

from .wire import close_all

# TAROT_TEST_REDIS names another shared Redis (e.g. one per work tree run side by side).
SHARED_REDIS = os.environ.get("TAROT_TEST_REDIS", "redis://127.0.0.1:6379")
REDIS_TEST_URL = f"{SHARED_REDIS}/13"


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def app(request: pytest.FixtureRequest) -> AsyncIterator[App]:
    redis_url = REDIS_TEST_URL if request.param == "redis" else None
    if redis_url is not None:
        await flush(redis_url)
    settings = Settings(port=0, next_deal_seconds=30, lease_ms=600, redis_url=redis_url)
    running = await App.start(settings)
    try:
        yield running
    finally:
        await running.stop(drain_seconds=0)
        if redis_url is not None:
            await flush(redis_url)


async def flush(url: str) -> None:
    client: Redis = Redis.from_url(url)
    try:
        await client.flushdb()
    finally:
        await client.aclose()


@pytest.fixture
def url(app: App) -> str:
    return f"ws://127.0.0.1:{app.port}/"


@pytest.fixture(autouse=True)
async def close_clients() -> AsyncIterator[None]:
    """Every wire client a test opened is closed, even when the test fails."""
    yield
    await close_all()
