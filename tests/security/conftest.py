"""Attacks against a real node on loopback: fixtures that start one with chosen limits."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from server.app import App
from server.settings import Settings

from ..server.wire import close_all

Start = Callable[..., Awaitable[App]]


@pytest.fixture
async def node() -> AsyncIterator[Start]:
    """``await node(**settings)``: a node on 127.0.0.1:0, memory store, stopped after the test."""
    started: list[App] = []

    async def start(**overrides: Any) -> App:
        app = await App.start(Settings(port=0, **overrides))
        started.append(app)
        return app

    yield start
    await close_all()
    for app in started:
        await app.stop(drain_seconds=0)


def ws_url(app: App) -> str:
    return f"ws://127.0.0.1:{app.port}/"
