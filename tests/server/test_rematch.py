"""Rematch end to end (docs/PROTOCOL.md, section 17): a finished table offers its humans
a new table; those who accept sit there in the same seats, the AI takes the others'.
Also free text once the table is over, and the chat kept out of the game record."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

from server.app import App
from server.history import accounts
from server.node.archive import Archive
from server.settings import Settings

from .social_wire import (
    done,
    events_of,
    next_event,
    node,
    player,
    refused,
    settled,
    table_events,
    table_of,
)
from .wire import WireClient, random_choice

__all__ = ["node"]


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


def _turn_of(message: dict[str, Any]) -> dict[str, Any] | None:
    """The ``legal`` choices of a turn: a ``your_turn`` frame, or one inside ``events``."""
    if message["type"] == "your_turn":
        return message
    turn = message.get("your_turn") if message["type"] == "events" else None
    return turn if isinstance(turn, dict) else None


async def play_to_the_end(client: WireClient, seed: int) -> None:
    rng = random.Random(seed)
    async with asyncio.timeout(120):
        while True:
            message = await client.recv(60)
            turn = _turn_of(message)
            if turn is not None:
                await client.send({"type": "act", "action": random_choice(turn["legal"], rng)})
            if any(e["kind"] == "table_over" for e in table_events(message)):
                return


async def finished_table(app: App) -> tuple[WireClient, WireClient, str]:
    anna, bob = await player(app, "Anna"), await player(app, "Bob")
    table_id = await table_of(anna, bob)
    await done(anna, {"type": "chat", "preset": "good_luck"})
    await asyncio.gather(play_to_the_end(anna, 1), play_to_the_end(bob, 2))
    return anna, bob, table_id


async def test_both_accept_and_play_again_at_one_new_table(node: App) -> None:
    anna, bob, table_id = await finished_table(node)
    # Over: free text again, and the chat never went into the record.
    await done(anna, {"type": "chat", "text": "good game, again?"})
    [record] = events_of(anna, "record")
    assert "good_luck" not in str(record) and "chat" not in str(record["record"])
    # The rated deal's rating changes come to the table once the history rated it.
    ratings = events_of(anna, "ratings") or [await next_event(anna, "ratings")]
    [score] = events_of(anna, "score")
    assert ratings[0]["deal_number"] == score["deal_number"] == 1
    lines = {c["seat"]: c for c in ratings[0]["changes"]}
    assert set(lines) == {0, 1} and lines[0]["name"] == "Anna" and lines[1]["name"] == "Bob"
    # Only the two humans are compared (docs/RATINGS.md): they move unless they scored alike.
    scores = score["sheet"]["scores"]
    moved = [c["after"] - c["before"] for c in (lines[0], lines[1])]
    assert abs(sum(moved)) < 1e-6 and (moved[0] != 0) == (scores[0] != scores[1])
    asked_ms = time.time() * 1000
    joined = await anna.request({"type": "rematch", "accept": True, "id": "r1"}, "joined")
    new_id = joined["table_id"]
    assert new_id != table_id and joined["seat"] == 0 and joined["re"] == "r1"
    offer = await next_event(bob, "rematch")
    # The open offer says when it closes (rematch_seconds, 30 s, after the first answer).
    closes_in = offer.pop("deadline_ms") - asked_ms
    assert 29_000 < closes_in < 31_000
    assert offer | {"seq": 0} == {
        "seq": 0,
        "kind": "rematch",
        "table_id": new_id,
        "accepted": [0],
        "declined": [],
        "started": False,
        "timed_out": [],
    }
    again = await bob.request({"type": "rematch"}, "joined")
    assert (again["table_id"], again["seat"]) == (new_id, 1)
    dealt = await next_event(bob, "deal_started")  # the last answer started it
    assert dealt["deal_number"] == 1
    snapshot = [m for m in bob.received if m["type"] == "snapshot"][-1]
    assert [s["occupant"] for s in snapshot["table"]["seats"]][:2] == ["human", "human"]


async def test_a_decline_leaves_the_seat_to_the_ai(node: App) -> None:
    anna, bob, _ = await finished_table(node)
    error = await refused(anna, {"type": "chat", "text": "x" * 141})
    assert error["code"] == "invalid_message"
    joined = await anna.request({"type": "rematch"}, "joined")
    await done(bob, {"type": "rematch", "accept": False})
    assert events_of(bob, "rematch")[-1]["declined"] == [1]
    # The new table's start gives the AI every seat not taken (one frame in version 2).
    await next_event(anna, "deal_started")
    given = {e["seat"]["seat"]: e["seat"]["occupant"] for e in events_of(anna, "seat")}
    assert given[1] == "ai"
    assert joined["seat"] == 0


async def test_no_rematch_before_the_end(node: App) -> None:
    anna = await player(node, "Anna")
    await table_of(anna)
    error = await refused(anna, {"type": "rematch"})
    assert error["code"] == "not_finished"


@pytest.fixture
async def quick_node(tmp_path: Path) -> AsyncIterator[App]:
    """A node whose rematch offers close one second after their first answer."""
    settings = Settings(port=0, next_deal_seconds=30, rematch_seconds=1.0)
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    running = await App.start(settings, archive=archive)
    try:
        yield running
    finally:
        await running.stop(drain_seconds=0)


async def test_an_offer_not_answered_in_time_closes_and_the_ai_takes_the_silent_seat(
    quick_node: App,
) -> None:
    anna, bob, _ = await finished_table(quick_node)
    joined = await anna.request({"type": "rematch"}, "joined")
    assert (await next_event(bob, "rematch"))["timed_out"] == []
    closed = await next_event(bob, "rematch", timeout=10)  # Bob said nothing
    assert (closed["accepted"], closed["timed_out"], closed["started"]) == ([0], [1], True)
    await next_event(anna, "deal_started")  # the new table started without Bob
    given = {e["seat"]["seat"]: e["seat"]["occupant"] for e in events_of(anna, "seat")}
    assert given[1] == "ai" and joined["seat"] == 0
    late = await refused(bob, {"type": "rematch"})
    assert late["code"] == "rematch_closed"


async def settled_rematch(client: WireClient) -> dict[str, Any]:
    """The last ``rematch`` event of ``client``'s table, once every frame sent it so far came."""
    await settled(client, "rematch-settled")
    return events_of(client, "rematch")[-1]


async def test_an_answer_after_the_new_table_started_is_refused_and_changes_nothing(
    node: App,
) -> None:
    anna, bob, table_id = await finished_table(node)
    await anna.request({"type": "rematch"}, "joined")
    await done(bob, {"type": "rematch", "accept": False})  # the last answer: it starts
    await next_event(anna, "deal_started")
    before = await settled_rematch(bob)
    assert (before["accepted"], before["declined"], before["started"]) == ([0], [1], True)
    late = await refused(bob, {"type": "rematch", "accept": True})
    assert late["code"] == "rematch_closed"
    # The old table's record still says Bob declined: a refused answer changes nothing.
    assert await settled_rematch(bob) == before
    assert not [m for m in bob.received if m["type"] == "joined" and m["table_id"] != table_id]


async def test_an_accept_once_the_new_table_was_started_there_changes_nothing(
    node: App,
) -> None:
    """Anna starts the new table before the others answered (PROTOCOL.md allows it):
    Bob's accept is refused, and the old table does not say he accepted."""
    anna, bob, carl = [await player(node, n) for n in ("Anna", "Bob", "Carl")]
    await table_of(anna, bob, carl)
    await asyncio.gather(*(play_to_the_end(c, i) for i, c in enumerate((anna, bob, carl))))
    await anna.request({"type": "rematch"}, "joined")
    await done(anna, {"type": "start"})
    before = await settled_rematch(carl)
    late = await refused(bob, {"type": "rematch", "accept": True})
    assert late["code"] == "rematch_closed"
    assert await settled_rematch(carl) == before  # no "accepted": [0, 1] at the old table


async def test_a_decline_may_become_an_accept_until_every_seat_answered(node: App) -> None:
    anna, bob, carl = [await player(node, n) for n in ("Anna", "Bob", "Carl")]
    await table_of(anna, bob, carl)
    await asyncio.gather(*(play_to_the_end(c, i) for i, c in enumerate((anna, bob, carl))))
    await anna.request({"type": "rematch"}, "joined")
    await done(bob, {"type": "rematch", "accept": False})
    joined = await bob.request({"type": "rematch", "accept": True}, "joined")
    assert joined["seat"] == 1
    offer = await settled_rematch(carl)
    assert (offer["accepted"], offer["declined"], offer["started"]) == ([0, 1], [], False)
    await done(carl, {"type": "rematch", "accept": False})
    await next_event(bob, "deal_started")
    late = await refused(carl, {"type": "rematch", "accept": True})
    assert late["code"] == "rematch_closed"
