"""What a ``resume`` brings that the server must not take on trust (issue 29): a ``last_seq``
past the table's last event or before its log, a negative one, one a spectator counted, and
a token that a ``leave`` ends while the resume is on its way. Each gets an exact picture
(replayed events or a snapshot, then every event that follows) or an error, never a seat
that waits for ever."""

from __future__ import annotations

import asyncio
import random

import pytest
from redis.asyncio import Redis

from server.app import App
from server.store import memory
from server.store.redis import keys

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


async def test_a_resume_from_before_the_logs_start_gets_a_snapshot(
    app: App, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log keeps the last events only (here 3): what it lost is not replayed from where
    it starts, the seat gets a snapshot (already so; kept so)."""
    monkeypatch.setattr(memory, "EVENT_LOG_LIMIT", 3)
    host = await WireClient.open(url)
    table_id = await create(host, deals=1)
    player = await WireClient.open(url)
    await player.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    await player.until(lambda m: m["type"] == "snapshot")
    first_seq, token = player.last_seq, player.token
    await player.close()
    await host.request({"type": "join", "table_id": table_id, "seat": 1}, "joined")
    await host.send({"type": "start"})  # the AI takes seats 2 and 3: many events
    await host.until(is_event("turn"))
    assert host.last_seq > first_seq + 3
    redis_url = app.node.settings.redis_url
    if redis_url is not None:  # Redis trims its log by whole blocks: trimmed here exactly
        client: Redis = Redis.from_url(redis_url)
        await client.xtrim(keys.events(table_id), maxlen=3, approximate=False)
        await client.aclose()
    back = await WireClient.open(url)
    back.last_seq = first_seq
    await back.send({"type": "resume", "token": token, "last_seq": first_seq})
    await back.until(lambda m: m["type"] == "joined")
    snapshot = await back.until(lambda m: m["type"] in ("snapshot", "event", "your_turn"))
    assert snapshot["type"] == "snapshot", snapshot
    assert snapshot["seq"] >= host.last_seq
    assert len(snapshot["view"]["hand"]) == 18


async def test_a_spectators_last_seq_does_not_resume_a_seat_without_its_hand(url: str) -> None:
    """A spectator saw the seat's hand as ``hidden``: its numbers are not the seat's. The
    connection that watched the table and resumes a seat of it gets a snapshot, which shows
    the hand, instead of nothing replayed and no hand (issue 29, 'a spectator's last_seq')."""
    host = await WireClient.open(url)
    table_id = await create(host, deals=1)
    player = await WireClient.open(url)
    await player.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    watcher = await WireClient.open(url)
    await watcher.request({"type": "watch", "table_id": table_id}, "watching")
    await host.request({"type": "join", "table_id": table_id, "seat": 1}, "joined")
    await host.send({"type": "start"})
    await watcher.until(is_event("turn"))
    assert any(m["event"] == {"kind": "hidden"} for m in watcher.received if "event" in m)
    await watcher.send({"type": "resume", "token": player.token, "last_seq": watcher.last_seq})
    await watcher.until(lambda m: m["type"] == "joined")
    snapshot = await watcher.until(lambda m: m["type"] in ("snapshot", "event", "your_turn"))
    assert snapshot["type"] == "snapshot", snapshot
    assert snapshot["view"]["seat"] == 0 and len(snapshot["view"]["hand"]) == 18


@pytest.mark.parametrize("first", ["leave", "resume"])
async def test_a_resume_racing_a_leave_either_takes_the_seat_or_is_refused(
    url: str, first: str
) -> None:
    """One wins: the leave (the seat is empty, the token refused: ``bad_token``) or the
    resume (the seat is the new connection's, the old one replaced and its leave refused),
    never both: a connection following a seat that is empty, or a seat given away under
    the connection that holds it (the token was checked before the change and not in it)."""
    host = await WireClient.open(url)
    for _ in range(6):
        table_id = await create(host)
        old = await WireClient.open(url)
        await old.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
        new = await WireClient.open(url)
        leave = old.send({"type": "leave"})
        resume = new.send({"type": "resume", "token": old.token})
        await asyncio.gather(*((leave, resume) if first == "leave" else (resume, leave)))
        answer = await new.until(lambda m: m["type"] in ("joined", "error"))
        left = await old.until(lambda m: m["type"] in ("left", "error", "bye"))
        tables = await host.request({"type": "list_tables"}, "tables")
        (summary,) = [t for t in tables["tables"] if t["table_id"] == table_id]
        occupant = summary["seats"][0]["occupant"]
        if answer["type"] == "joined":
            assert left["type"] != "left" and occupant == "human", (left, occupant)
        else:
            assert answer["code"] == "bad_token", answer
            assert left["type"] == "left" and occupant == "empty", (left, occupant)
        await old.close()
        await new.close()
