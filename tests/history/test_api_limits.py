"""Attacks on the history's JSON API, against a real node and database: one address flooding
it is refused (429, Retry-After) while another is served, and the queries a node runs at once
are bounded (past the bound: 503 at once, not one more wait for the database)."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any, cast

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import QueuePool

from server.app import App
from server.history import DealWriter
from server.net.api_limits import MAX_BUCKETS, ApiLimits
from server.node.archive import Archive
from server.settings import Settings

from .api_data import fill

Answer = tuple[int, dict[str, str], Any]
Node = Callable[..., Awaitable[App]]


@pytest.fixture
async def node(engine: AsyncEngine) -> AsyncIterator[Node]:
    """A node behind a proxy on loopback: X-Forwarded-For names each request's client."""
    await fill(engine)
    apps: list[App] = []

    async def start(**limits: Any) -> App:
        settings = Settings(port=0, trusted_proxies=("127.0.0.1",), **limits)
        apps.append(await App.start(settings, archive=Archive(DealWriter(engine), engine)))
        return apps[-1]

    try:
        yield start
    finally:
        for app in apps:
            await app.stop(drain_seconds=0)


async def get(app: App, path: str, client: str) -> Answer:
    def fetch() -> tuple[int, dict[str, str], bytes]:
        request = urllib.request.Request(
            f"http://127.0.0.1:{app.port}{path}", headers={"X-Forwarded-For": client}
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    status, headers, body = await asyncio.to_thread(fetch)
    return status, headers, json.loads(body)


async def test_a_flooding_address_gets_429_with_retry_after_and_another_is_served(
    node: Node,
) -> None:
    app = await node(api_per_second=0.5, api_burst=5)
    answers = [await get(app, "/api/leaderboard", "10.0.0.1") for _ in range(8)]
    assert [status for status, _, _ in answers] == [200] * 5 + [429] * 3
    _, headers, body = answers[-1]
    assert body["error"]["code"] == "rate_limited"
    assert headers["Content-Type"] == "application/json; charset=utf-8"
    assert 1 <= int(headers["Retry-After"]) <= 2  # a token every 2 s
    assert (await get(app, "/api/players/1", "10.0.0.2"))[0] == 200
    assert (await get(app, "/api/players/1", "10.0.0.1"))[0] == 429


async def test_queries_running_at_once_are_bounded_and_the_others_refused_at_once(
    node: Node, engine: AsyncEngine
) -> None:
    app = await node(api_in_flight=2)
    pool = cast(QueuePool, engine.sync_engine.pool)
    async with AsyncExitStack() as held:
        # Every database connection taken: the API's queries wait (a slow database).
        for _ in range(pool.size() + pool._max_overflow):
            await held.enter_async_context(engine.connect())
        waiting = [asyncio.create_task(get(app, "/api/leaderboard", f"10.0.1.{i}")) for i in (1, 2)]
        while app.api_limits.running < 2:
            await asyncio.sleep(0.01)
        status, headers, body = await get(app, "/api/players/1", "10.0.1.3")
        assert (status, body["error"]["code"], headers["Retry-After"]) == (503, "busy", "1")
        assert not any(task.done() for task in waiting)
    assert [(await task)[0] for task in waiting] == [200, 200]
    assert app.api_limits.running == 0
    assert (await get(app, "/api/players/1", "10.0.1.3"))[0] == 200


def test_a_flood_of_addresses_holds_a_bounded_number_of_buckets() -> None:
    limits = ApiLimits(per_second=0.001, burst=1, in_flight=0)
    assert limits.refusal("2001:db8::flooder") is None
    assert limits.refusal("2001:db8::flooder") is not None
    for i in range(MAX_BUCKETS + 10):
        assert limits.refusal(f"2001:db8:1::{i:x}") is None
    assert len(limits.buckets) <= MAX_BUCKETS
    refused = limits.refusal(f"2001:db8:1::{MAX_BUCKETS + 9:x}")
    assert refused is not None and refused.status_code == 429
