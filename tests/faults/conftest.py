"""Fixtures of the fault suite: server node processes started by the test, and their
process trees (the node, its bot workers, multiprocessing's resource tracker)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from ..redis.conftest import NodeFactory, own_redis, redis_url  # noqa: F401 - fixtures
from ..redis.servers import NodeProcess
from ..server.wire import close_all


@pytest.fixture
async def nodes(tmp_path: Path) -> AsyncIterator[NodeFactory]:
    """``nodes(url or None, "a", *flags)``: ``tarot serve`` processes, ended after the test."""
    started: list[NodeProcess] = []

    def start(store_url: str | None, node_id: str, *extra: str) -> NodeProcess:
        node = NodeProcess(store_url, node_id, tmp_path / f"{node_id}.log", *extra)
        started.append(node)
        return node.start()

    try:
        yield start
    finally:
        await close_all()
        for node in started:
            node.stop()
