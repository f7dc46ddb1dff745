"""Version 2's fewer frames (issue 28): one ``events`` frame per reader per commit.

On a version 2 connection a commit's events come in one frame, the seat to act
finds its ``your_turn`` folded into it, and the connection whose request made
the change its ``re`` (no ``ack``). The events themselves are version 1's: a
version 1 spectator beside them reads the same events, one frame each.
"""

from __future__ import annotations

import random
from typing import Any

from .wire import Message, WireClient, random_choice

V2_NEVER = {"event", "your_turn", "ack"}


async def seated_v2(url: str, deals: int = 1) -> tuple[WireClient, str]:
    client = await WireClient.open(url, version=2)
    created = await client.request(
        {"type": "create_table", "options": {"deals": deals, "ai_level": "random"}},
        "table_created",
    )
    table_id = created["table"]["table_id"]
    await client.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    await client.until(lambda m: m["type"] == "snapshot")
    return client, table_id


def events_of(frames: list[Message]) -> list[tuple[int, Any]]:
    """Every numbered event of a connection's frames, whichever version it speaks."""
    out: list[tuple[int, Any]] = []
    for frame in frames:
        if frame["type"] == "event":
            out.append((frame["seq"], frame["event"]))
        elif frame["type"] == "events":
            out += [(e["seq"], e["event"]) for e in frame["events"]]
    return out


async def test_a_v2_seat_plays_a_deal_in_one_frame_per_commit(url: str) -> None:
    client, table_id = await seated_v2(url)
    v2_watcher = await WireClient.open(url, version=2)
    await v2_watcher.request({"type": "watch", "table_id": table_id}, "watching")
    v1_watcher = await WireClient.open(url)
    await v1_watcher.request({"type": "watch", "table_id": table_id}, "watching")
    rng = random.Random(28)
    next_id = 100
    await client.send({"type": "start", "id": next_id})
    asked: dict[int, int] = {}  # request id -> how many frames carried it as re
    over = False
    while not over:
        frame = await client.recv()
        assert frame["type"] not in V2_NEVER, frame
        if frame["type"] == "error":
            raise AssertionError(frame)
        if frame["type"] != "events":
            continue
        if "re" in frame:
            asked[frame["re"]] = asked.get(frame["re"], 0) + 1
            assert frame["events"], "an answered request's frame carries its events"
        turn = frame.get("your_turn")
        if turn is not None:
            assert turn["legal"]["seat"] == 0
            assert turn["seq"] == client.last_seq  # after every event that led to it
            next_id += 1
            action = random_choice(turn["legal"], rng)
            await client.send({"type": "act", "action": action, "id": next_id})
            asked.setdefault(next_id, 0)
        over = any(e["event"]["kind"] == "table_over" for e in frame["events"])
    assert asked and all(count == 1 for count in asked.values()), asked
    # The spectators: the same events, in fewer frames for version 2.
    for watcher in (v1_watcher, v2_watcher):
        await watcher.until(
            lambda m: any(e[1]["kind"] == "table_over" for e in events_of([m])), timeout=30
        )
    v2_frames = [f for f in v2_watcher.received if f["type"] in V2_NEVER | {"events"}]
    assert {f["type"] for f in v2_frames} == {"events"}
    assert all("your_turn" not in f and "re" not in f for f in v2_frames)
    seen = events_of(v1_watcher.received)
    assert events_of(v2_watcher.received) == seen
    assert len(v2_frames) < len(seen) / 2


async def test_a_v2_snapshot_carries_the_seats_turn(url: str) -> None:
    client, table_id = await seated_v2(url, deals=2)
    token = client.token
    await client.send({"type": "start"})
    turn = await client.until(lambda m: m["type"] == "events" and "your_turn" in m)
    await client.close()
    again = await WireClient.open(url, version=2)
    await again.request({"type": "resume", "token": token}, "joined")
    snapshot = await again.until(lambda m: m["type"] == "snapshot")
    # The same turn, numbered after the seat's own ``seat`` events (gone, back).
    assert snapshot["your_turn"]["legal"] == turn["your_turn"]["legal"]
    assert snapshot["your_turn"]["seq"] == snapshot["seq"] > turn["your_turn"]["seq"]
    # A spectator's snapshot, and a version 1 seat's, say nothing of it.
    watcher = await WireClient.open(url, version=2)
    await watcher.request({"type": "watch", "table_id": table_id}, "watching")
    assert "your_turn" not in await watcher.until(lambda m: m["type"] == "snapshot")
    await again.close()
    v1 = await WireClient.open(url)
    await v1.request({"type": "resume", "token": token}, "joined")
    assert "your_turn" not in await v1.until(lambda m: m["type"] == "snapshot")
    v1_turn = await v1.until(lambda m: m["type"] == "your_turn")
    assert v1_turn["legal"] == turn["your_turn"]["legal"]


async def test_a_v2_request_that_changes_nothing_still_gets_its_ack(url: str) -> None:
    client, _ = await seated_v2(url)
    await client.send({"type": "start", "id": 1})
    await client.until(lambda m: m.get("re") == 1)
    await client.send({"type": "next_deal", "id": 2})  # during the deal: ignored
    ack = await client.until(lambda m: m.get("re") == 2)
    assert ack["type"] == "ack", ack


async def test_a_v2_replay_comes_in_events_frames_then_the_turn(url: str) -> None:
    client, _ = await seated_v2(url, deals=2)
    token = client.token
    await client.send({"type": "start"})
    turn = await client.until(lambda m: m["type"] == "events" and "your_turn" in m)
    last_seq = client.last_seq
    await client.close()
    again = await WireClient.open(url, version=2)
    again.last_seq = last_seq
    await again.request({"type": "resume", "token": token, "last_seq": last_seq}, "joined")
    offered = await again.until(lambda m: "your_turn" in m)
    assert {f["type"] for f in again.received} <= {"welcome", "joined", "events"}
    replayed = [e for f in again.received if f["type"] == "events" for e in f["events"]]
    assert replayed and replayed[0]["seq"] == last_seq + 1  # the seat's own comings and goings
    assert offered["type"] == "events"
    assert offered["your_turn"]["legal"] == turn["your_turn"]["legal"]
    assert offered["your_turn"]["seq"] == again.last_seq
