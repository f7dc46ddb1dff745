"""What a ``resume`` brings that the server must not take on trust (issue 29): a ``last_seq``
past the table's last event or before its log, a negative one, one a spectator counted, and
a token that a ``leave`` ends while the resume is on its way. Each gets an exact picture
(replayed events or a snapshot, then every event that follows) or an error, never a seat
that waits for ever."""

from __future__ import annotations

import random

from .test_tables import create, seat_four
from .wire import WireClient, is_event, random_choice


async def started_table(url: str) -> tuple[str, list[WireClient]]:
    """Four humans at a table of one deal, its first turn dealt out."""
    host = await WireClient.open(url)
    table_id = await create(host, deals=1)
    clients = await seat_four(url, table_id, ("json",) * 4)
    await clients[0].until(is_event("turn"))
    return table_id, clients


async def test_a_resume_past_the_last_event_gets_a_snapshot_then_the_events_that_follow(
    url: str,
) -> None:
    """Issue 29.1: the seat took the client's number unchecked, skipped every event up to it
    and was sent a your_turn numbered past the table's last event: it froze."""
    _, clients = await started_table(url)
    turn = clients[0].received[-1]
    seat = turn["event"]["seat"]
    gone = clients[seat]  # the seat to act comes back with a number the table never reached
    table_seq = clients[0].last_seq  # the table's last event (the turn)
    await gone.close()
    back = await WireClient.open(url)
    await back.send({"type": "resume", "token": gone.token, "last_seq": table_seq + 1000})
    await back.until(lambda m: m["type"] == "joined")
    snapshot = await back.until(lambda m: m["type"] in ("snapshot", "your_turn", "event"))
    assert snapshot["type"] == "snapshot", snapshot
    assert table_seq <= snapshot["seq"] <= table_seq + 2  # with its drop and return, if seen
    asked = await back.until(lambda m: m["type"] == "your_turn")
    assert asked["seq"] == back.last_seq  # after the events it answers
    # It acts, and the events that follow reach it (numbered on from the snapshot).
    await back.send({"type": "act", "action": random_choice(asked["legal"], random.Random(1))})
    acted = await back.until(lambda m: m["type"] == "event" and m["event"].get("seat") == seat)
    assert acted["seq"] == asked["seq"] + 1


async def test_a_negative_last_seq_is_an_invalid_message(url: str) -> None:
    _, clients = await started_table(url)
    other = await WireClient.open(url)
    await other.send({"type": "resume", "token": clients[0].token, "last_seq": -1})
    refused = await other.until(lambda m: m["type"] == "error")
    assert refused["code"] == "invalid_message", refused
    assert not any(m["type"] == "bye" for m in clients[0].received)  # the seat stays its own
