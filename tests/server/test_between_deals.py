"""Between deals the table says when the next deal starts and whom it waits for.

``between_deals`` follows a played deal's ``score`` and ``record`` (not a cancelled
deal's, not the last deal's); it comes again with one seat fewer at each
``next_deal``; a snapshot taken meanwhile carries the same deadline.
"""

from __future__ import annotations

import asyncio
import random
import time

from server.app import App

from .test_tables import create
from .wire import Message, WireClient, is_event, play_until


def between(message: Message) -> bool:
    return is_event("between_deals")(message)


async def play_to_a_played_deal(players: list[WireClient], seed: int) -> list[Message]:
    """Every player answers its turns until a played (not cancelled) deal is scored."""

    def played(m: Message) -> bool:
        return is_event("score")(m) and m["event"]["sheet"]["status"] == "played"

    return list(
        await asyncio.gather(
            *(play_until(p, played, random.Random(seed + i)) for i, p in enumerate(players))
        )
    )


async def test_the_wait_is_announced_counted_down_by_seat_and_ends_with_the_last_ready(
    app: App, url: str
) -> None:
    host = await WireClient.open(url)
    table_id = await create(host, deals=2)
    players = []
    for seat in (1, 3):
        player = await WireClient.open(url)
        await player.request({"type": "join", "table_id": table_id, "seat": seat}, "joined")
        players.append(player)
    await players[0].send({"type": "start"})
    scores = await play_to_a_played_deal(players, seed=11)
    deal_number = scores[0]["event"]["deal_number"]
    waits = [await p.until(between) for p in players]
    assert waits[0]["seq"] == waits[1]["seq"] == scores[0]["seq"] + 2  # after the record
    wait = waits[0]["event"]
    assert wait == waits[1]["event"]
    assert wait["next_deal_number"] == deal_number + 1
    assert wait["waiting_for"] == [1, 3]  # the humans; AI seats are never waited for
    settings_ms = app.node.settings.next_deal_seconds * 1000
    # The played deal's record: a deal passed out before it had a record of its own.
    record = [m for m in players[0].received if is_event("record")(m)][-1]
    assert record["seq"] == scores[0]["seq"] + 1
    # The deadline is the end of the deal plus the server's wait (the deal ended moments ago).
    assert 0 < wait["deadline_ms"] - time.time() * 1000 <= settings_ms

    # A spectator arriving now sees the same deadline in its snapshot.
    spectator = await WireClient.open(url)
    await spectator.request({"type": "watch", "table_id": table_id}, "watching")
    snapshot = await spectator.until(lambda m: m["type"] == "snapshot")
    assert snapshot["table"]["next_deal_ms"] == wait["deadline_ms"]

    # Seat 3 is ready: everyone hears the table now waits for seat 1 only.
    await players[1].send({"type": "next_deal"})
    again = await players[0].until(between)
    assert again["event"]["waiting_for"] == [1]
    assert again["event"]["deadline_ms"] == wait["deadline_ms"]
    assert (await spectator.until(between))["event"] == again["event"]
    # Saying it twice changes nothing: no event, no new version.
    version = (await app.node.runtime(table_id)).data.version
    await players[1].request({"type": "ping"}, "pong")
    await players[1].send({"type": "next_deal"})
    await players[1].request({"type": "ping"}, "pong")
    assert (await app.node.runtime(table_id)).data.version == version

    # The last one ready: the next deal starts, and the deadline is gone.
    await players[0].send({"type": "next_deal"})
    started = await spectator.until(is_event("deal_started"))
    assert started["event"]["deal_number"] == deal_number + 1
    runtime = await app.node.runtime(table_id)
    assert runtime.summary().next_deal_ms is None


async def test_no_wait_is_announced_after_the_last_deal(url: str) -> None:
    client = await WireClient.open(url)
    table_id = await create(client, deals=1)
    await client.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    await client.send({"type": "start"})
    await play_until(client, is_event("table_over"), random.Random(2))
    kinds = [m["event"]["kind"] for m in client.received if m["type"] == "event"]
    assert "between_deals" not in kinds
    # Cancelled deals (all pass) are dealt again at once: no wait announced for them either.
    assert kinds[-3:] == ["score", "record", "table_over"]
