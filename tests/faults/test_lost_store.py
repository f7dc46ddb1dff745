"""Redis restarted without its data: the tables it had are reported lost (issue 13.8)."""

from __future__ import annotations

import asyncio
import shutil

from ..redis.conftest import NodeFactory
from ..redis.servers import RedisServer
from ..server.wire import WireClient
from .test_shutdown import fetch_status


async def test_a_table_the_store_lost_is_reported_lost_dropped_and_seen_by_the_health_check(
    own_redis: RedisServer, nodes: NodeFactory
) -> None:
    node = nodes(own_redis.url, "a", "--lease-ms", "1000")
    player = await WireClient.open(node.url)
    created = await player.request(
        {"type": "create_table", "options": {"deals": 1}}, "table_created"
    )
    table_id = created["table"]["table_id"]
    await player.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    await player.send({"type": "start"})
    await player.until(lambda m: m["type"] == "your_turn", timeout=30)
    assert await fetch_status(f"{node.http}/healthz") == (200, "ok\n")
    own_redis.stop()
    shutil.rmtree(own_redis.workdir)  # no persistence: it comes back empty
    own_redis.start()
    lost = await player.until(lambda m: m["type"] == "error", timeout=30)
    assert lost["code"] == "table_lost" and table_id in lost["message"]
    assert await fetch_status(f"{node.http}/healthz") == (503, "store lost data\n")
    # The connection is back in the lobby: it may act on nothing, and start again.
    await player.send({"type": "start", "id": 1})
    refused = await player.until(lambda m: m["type"] == "error")
    assert refused["code"] == "not_seated"
    watcher = await WireClient.open(node.url)
    await watcher.send({"type": "watch", "table_id": table_id})
    assert (await watcher.until(lambda m: m["type"] == "error"))["code"] == "unknown_table"
    await asyncio.sleep(0)
