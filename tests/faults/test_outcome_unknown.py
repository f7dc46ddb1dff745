"""An action answered ``outcome_unknown`` (Redis silent past the node's whole check): the
client that waits, without resuming, learns its fate from what follows (PROTOCOL.md,
section 14): its action's event if it was kept, its turn asked again if not. One node
alone with its table hears no echo of its commits, so the node must look (issue 13.14:
a table frozen with no turn delivered)."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

from server.app import App
from server.settings import Settings
from server.store.redis.store import RedisStore

from ..redis.servers import RedisServer
from ..server.wire import Message, WireClient
from .test_redis_stall import is_bid_of

TIMEOUT = 0.2  # the node's store time-out in the stall: its check gives up after ~4 x this


async def test_an_action_answered_outcome_unknown_is_then_shown_applied_or_asked_again(
    tmp_path: Path,
) -> None:
    redis = RedisServer(tmp_path / "redis", "--enable-debug-command", "yes").start()
    # Renewals far apart: none fails during the stall and resyncs the node by chance.
    store = await RedisStore.connect(redis.url, follow_ttl_ms=600_000)
    app = await App.start(Settings(port=0, lease_ms=1500, ai_pause_seconds=0), store=store)
    try:
        player = await WireClient.open(app.url)
        created = await player.request(
            {"type": "create_table", "options": {"deals": 1}}, "table_created"
        )
        table_id = created["table"]["table_id"]
        await player.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
        await player.send({"type": "start"})
        turn = await player.until(lambda m: m["type"] == "your_turn", timeout=30)
        act = {"type": "act", "action": {"kind": "bid", "contract": turn["legal"]["bids"][0]}}
        stall = subprocess.Popen(
            ["redis-cli", "-p", str(redis.port), "DEBUG", "SLEEP", "1.5"],
            stdout=subprocess.DEVNULL,
        )
        try:
            await asyncio.sleep(0.15)  # the stall has begun
            store.op_timeout = TIMEOUT  # short only here: this machine is shared and slow
            await player.send({**act, "id": 1})
            answer = await player.until(lambda m: m.get("re") == 1, timeout=15)
        finally:
            await asyncio.to_thread(stall.wait)
            store.op_timeout = 2.0
        assert answer.get("code") == "outcome_unknown", answer

        def told(message: Message) -> bool:
            return is_bid_of(0, message) or (
                message["type"] == "your_turn" and message["seq"] == turn["seq"]
            )

        news = await player.until(told, timeout=10)  # before: nothing, ever
        if news["type"] == "your_turn":  # not kept: the same act again
            await player.request({**act, "id": 2}, "ack")
            await player.until(lambda m: is_bid_of(0, m), timeout=10)
        await asyncio.sleep(0.3)
        assert sum(1 for m in player.received if is_bid_of(0, m)) == 1

        def later_turn(message: Message) -> bool:  # the table goes on to seat 0's next turn
            return bool(message["type"] == "your_turn" and message["seq"] > turn["seq"])

        if not any(later_turn(m) for m in player.received):
            await player.until(later_turn, timeout=30)
    finally:
        await app.stop(drain_seconds=0)
        redis.stop()
