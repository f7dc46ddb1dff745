"""A player whose node dies and who never returns: the seat goes away and the AI plays it
(issue 13.5). Only the dead node could have seen the connection close; its heartbeat
tells the node driving the table."""

from __future__ import annotations

from collections.abc import Callable

from ..redis.conftest import NodeFactory
from ..server.wire import Message, WireClient


def seat_away(seat: int) -> Callable[[Message], bool]:
    def check(message: Message) -> bool:
        if message["type"] != "event" or message["event"]["kind"] != "seat":
            return False
        info = message["event"]["seat"]
        return bool(info["seat"] == seat and not info["connected"])

    return check


async def test_a_seat_held_through_a_node_killed_goes_away_and_the_table_plays_on(
    redis_url: str, nodes: NodeFactory
) -> None:
    a = nodes(redis_url, "a", "--lease-ms", "900")
    b = nodes(redis_url, "b", "--lease-ms", "900")
    host = await WireClient.open(a.url)
    created = await host.request(
        {"type": "create_table", "options": {"deals": 1, "grace_seconds": 1}}, "table_created"
    )
    table_id = created["table"]["table_id"]
    watcher = await WireClient.open(a.url)
    await watcher.request({"type": "watch", "table_id": table_id}, "watching")
    player = await WireClient.open(b.url)
    await player.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    await player.send({"type": "start"})
    await watcher.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "turn")
    b.kill()  # the player never comes back
    await watcher.until(seat_away(0), timeout=15)
    # The grace period ends and the AI plays seat 0's turns: the deal ends.
    await watcher.until(
        lambda m: m["type"] == "event" and m["event"]["kind"] == "score", timeout=60
    )
