"""A create_table and a join written as Redis stalls past the node's whole check: the
answer does not say whether they were applied (``unavailable`` for a creation, maybe
``outcome_unknown`` for a join). Sent again with the same key once Redis is back, each is
applied once: one table, one seat (issue 13, server/table/request_keys.py)."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

from server.app import App
from server.settings import Settings
from server.store.redis.store import RedisStore

from ..redis.servers import RedisServer
from ..server.wire import Message, WireClient
from .test_outcome_unknown import TIMEOUT

TABLE_KEY, SEAT_KEY = "table-key-0123456789", "seat-key-0123456789"


async def in_a_stall(
    redis: RedisServer, store: RedisStore, client: WireClient, message: Message
) -> Message:
    """Send ``message`` as Redis sleeps; its answer, once Redis is back."""
    stall = subprocess.Popen(
        ["redis-cli", "-p", str(redis.port), "DEBUG", "SLEEP", "1.5"], stdout=subprocess.DEVNULL
    )
    try:
        await asyncio.sleep(0.15)  # the stall has begun
        store.op_timeout = TIMEOUT
        await client.send({**message, "id": 1})
        return await client.until(lambda m: m.get("re") == 1, timeout=15)
    finally:
        await asyncio.to_thread(stall.wait)
        store.op_timeout = 2.0


async def test_a_create_and_a_join_sent_again_with_their_keys_are_applied_once(
    tmp_path: Path,
) -> None:
    redis = RedisServer(tmp_path / "redis", "--enable-debug-command", "yes").start()
    store = await RedisStore.connect(redis.url)
    app = await App.start(Settings(port=0), store=store)
    try:
        host = await WireClient.open(app.url)
        create = {"type": "create_table", "options": {"deals": 1}, "key": TABLE_KEY}
        first = await in_a_stall(redis, store, host, create)
        again = await host.request(create, "table_created")
        table_id = again["table"]["table_id"]
        if first["type"] == "table_created":
            assert first["table"]["table_id"] == table_id
        player = await WireClient.open(app.url)
        join = {"type": "join", "table_id": table_id, "key": SEAT_KEY}
        answer = await in_a_stall(redis, store, player, join)
        if answer["type"] == "error":
            joined = await player.request(join, "joined")
        else:
            joined = answer
        retry = await WireClient.open(app.url)  # and once more, on another connection
        assert (await retry.request(join, "joined"))["token"] == joined["token"]
        tables = (await host.request({"type": "list_tables"}, "tables"))["tables"]
        assert [t["table_id"] for t in tables] == [table_id]
        (summary,) = tables
        assert [s["occupant"] for s in summary["seats"]].count("human") == 1
    finally:
        await app.stop(drain_seconds=0)
        redis.stop()
