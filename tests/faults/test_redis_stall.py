"""Redis stalls past the node's time-out while an action is being written (issue 13.6):
``unavailable`` must mean that nothing changed; otherwise the action is acknowledged."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

from ..redis.conftest import NodeFactory
from ..redis.servers import RedisServer
from ..server.wire import Message, WireClient


def is_bid_of(seat: int, message: Message) -> bool:
    event = message.get("event") or {}
    return (
        bool(message["type"] == "event" and event.get("kind") == "bid")
        and event.get("seat") == seat
    )


async def test_an_action_written_during_a_redis_stall_is_applied_once_and_answered_truly(
    tmp_path: Path, nodes: NodeFactory
) -> None:
    redis = RedisServer(tmp_path / "redis", "--enable-debug-command", "yes").start()
    try:
        node = nodes(redis.url, "a", "--redis-timeout", "0.5")
        player = await WireClient.open(node.url)
        created = await player.request(
            {"type": "create_table", "options": {"deals": 1}}, "table_created"
        )
        table_id = created["table"]["table_id"]
        await player.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
        await player.send({"type": "start"})
        turn = await player.until(lambda m: m["type"] == "your_turn", timeout=30)
        act = {"type": "act", "action": {"kind": "bid", "contract": turn["legal"]["bids"][0]}}
        stall = subprocess.Popen(
            ["redis-cli", "-p", str(redis.port), "DEBUG", "SLEEP", "1.2"],
            stdout=subprocess.DEVNULL,
        )
        try:
            await asyncio.sleep(0.15)  # the stall has begun
            await player.send({**act, "id": 1})
            answer = await player.until(lambda m: m.get("re") == 1, timeout=15)
        finally:
            await asyncio.to_thread(stall.wait)
        if answer["type"] == "error":
            assert answer["code"] == "unavailable", answer
            await asyncio.sleep(1.0)  # had it landed, its events would come now
            await player.send({**act, "id": 2})  # nothing changed: the same act again
            answer = await player.until(lambda m: m.get("re") == 2, timeout=15)
        assert answer["type"] == "ack", answer
        await asyncio.sleep(0.5)
        assert sum(1 for m in player.received if is_bid_of(0, m)) == 1
    finally:
        redis.stop()
