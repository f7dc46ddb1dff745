"""Fixtures: a real server node on 127.0.0.1:0 in this process, and its URL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from server.app import App
from server.settings import Settings


@pytest.fixture
async def app() -> AsyncIterator[App]:
    running = await App.start(Settings(port=0, next_deal_seconds=30, lease_ms=600))
    try:
        yield running
    finally:
        await running.stop(drain_seconds=0)


@pytest.fixture
def url(app: App) -> str:
    return f"ws://127.0.0.1:{app.port}/"
