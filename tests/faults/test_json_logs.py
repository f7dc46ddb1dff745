"""Issue 25.5: with ``--log-format json`` every line a node writes is JSON, its start and a
``kill -9`` included (before: the start banner on standard output, and the resource
tracker's "leaked semaphore" warning on standard error after a kill); a drain says each of
its steps, and an abuse close says so, with the client's address in a field."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path

from ..redis.conftest import NodeFactory
from ..server.wire import WireClient, is_event
from .processes import alive, descendants, kill_all


def records(log: Path) -> list[dict[str, object]]:
    lines = log.read_text().splitlines()
    return [json.loads(line) for line in lines]  # fails on any line that is not JSON


async def expert_table(url: str) -> WireClient:
    """A table whose AI seats decide in the bot workers, one of their moves made."""
    client = await WireClient.open(url)
    created = await client.request(
        {"type": "create_table", "options": {"deals": 1, "ai_level": "expert"}}, "table_created"
    )
    table_id = created["table"]["table_id"]
    await client.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    await client.send({"type": "start"})
    await client.until(lambda m: is_event("bid")(m) and m["event"]["seat"] != 0, timeout=60)
    return client


async def test_a_killed_node_leaves_a_json_log(nodes: NodeFactory, tmp_path: Path) -> None:
    node = nodes(None, "k", "--log-format", "json", "--bot-workers", "1")
    await expert_table(node.url)
    assert node.process is not None
    helpers = descendants(node.process.pid)
    try:
        node.process.send_signal(signal.SIGKILL)
        node.process.wait()
        for _ in range(100):
            if not alive(helpers):
                break
            await asyncio.sleep(0.1)
    finally:
        kill_all(helpers)
    await asyncio.sleep(0.5)
    assert all(r["node"] == "k" for r in records(node.log))


async def test_a_drain_and_an_abuse_close_are_lines_of_the_log(nodes: NodeFactory) -> None:
    node = nodes(None, "d", "--log-format", "json")
    await expert_table(node.url)
    flooder = await WireClient.open(node.url)
    for _ in range(1000):  # past the burst (200), then 200 strikes: closed
        await flooder.send({"type": "list_tables"})
    await asyncio.sleep(1)
    assert node.process is not None
    node.process.send_signal(signal.SIGTERM)
    await asyncio.to_thread(node.process.wait, 30)
    said = records(node.log)
    closes = [
        r for r in said if r["message"] == "closing a connection: messages past the rate limit"
    ]
    assert len(closes) == 1 and closes[0]["address"] == "127.0.0.1", said
    messages = [str(r["message"]) for r in said]
    assert any(m.startswith("draining: no new connections; 1 clients told") for m in messages)
    assert any(m == "draining: the leases of 1 tables handed over" for m in messages), messages
    assert any(m.startswith("drained in ") for m in messages), messages


def test_the_start_banner_is_json_too(tmp_path: Path) -> None:
    from ..cli.test_serve import serve_once

    out, err, status = serve_once(tmp_path, "--log-format", "json")
    said = [json.loads(line) for line in (out + err).splitlines()]
    assert status == 0 and str(said[0]["message"]).startswith("tarot server on http://")
