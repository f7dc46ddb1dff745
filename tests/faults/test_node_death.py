"""A node that dies, however it dies, takes its helper processes with it (issue 13.9)."""

from __future__ import annotations

import asyncio
import signal

from ..redis.conftest import NodeFactory
from ..server.wire import WireClient, is_event
from .processes import alive, descendants, kill_all


async def test_kill_9_of_a_node_ends_its_bot_workers_and_the_resource_tracker(
    nodes: NodeFactory,
) -> None:
    node = nodes(None, "a", "--bot-workers", "1", "--ai-pause", "0")
    client = await WireClient.open(node.url)
    created = await client.request(
        {"type": "create_table", "options": {"deals": 1, "ai_level": "expert"}}, "table_created"
    )
    table_id = created["table"]["table_id"]
    await client.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    await client.send({"type": "start"})
    # The AI seats decide in the worker pool: wait for one of their moves.
    await client.until(lambda m: is_event("bid")(m) and m["event"]["seat"] != 0, timeout=60)
    assert node.process is not None
    helpers = descendants(node.process.pid)
    assert len(helpers) >= 2, helpers  # a worker and the resource tracker
    try:
        node.process.send_signal(signal.SIGKILL)
        node.process.wait()
        for _ in range(100):
            if not alive(helpers):
                break
            await asyncio.sleep(0.1)
        assert not alive(helpers), "still running 10 s after their node was killed"
    finally:
        kill_all(helpers)
