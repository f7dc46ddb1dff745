"""A seat that leaves and resumes, again and again, on the other node each time, while the
AI plays for it (issue 29.2): each time the seat's turn comes, its ``your_turn`` comes after
the events that led to it, numbered as its last event, and the seat can act.

The defect was seen once in 60 such resumes; its mechanism (a node that reloads the table
and keeps the turn it knew because the same seat is to act again) is shown every time by
tests/server/node/test_resumed_turns.py. This one shows it gone on real nodes."""

from __future__ import annotations

import asyncio
import random

from ..server.wire import Message, WireClient, random_choice
from .conftest import NodeFactory
from .play import create_table, seat

RESUMES = 40


async def test_a_seat_resumed_on_the_other_node_is_asked_its_turn_after_its_events(
    redis_url: str, nodes: NodeFactory
) -> None:
    a, b = (nodes(redis_url, n, "--ai-pause", "0.01") for n in "ab")
    table_id = await create_table(a.url, deals=6, grace_seconds=0)
    client = await seat(a.url, table_id, 0)
    await client.send({"type": "start"})  # the AI takes seats 1-3
    rng = random.Random(29)
    answered = 0
    for n in range(RESUMES):
        # Every other time the seat goes at its turn: the AI plays it while it is away.
        if not await one_turn(client, rng, act=n % 2 == 0):
            break  # the table is over
        answered += 1
        # The seat goes away and comes back on the other node, with its last event.
        last_seq, token = client.last_seq, client.token
        await client.close()
        await asyncio.sleep(rng.uniform(0, 0.05))
        client = await WireClient.open((b, a)[n % 2].url)
        client.last_seq = last_seq
        await client.request({"type": "resume", "token": token, "last_seq": last_seq}, "joined")
    assert answered >= RESUMES // 2, answered


async def one_turn(client: WireClient, rng: random.Random, act: bool) -> bool:
    """Read until this seat's ``your_turn``, check it against the events before it, answer
    it if ``act``; False if the table ends first."""
    turn_seat: int | None = None  # whose turn the events (or a snapshot) say it is
    while True:
        try:
            message = await client.recv(timeout=10)
        except TimeoutError:
            raise AssertionError(
                f"seat froze: last event {client.last_seq}, turn of {turn_seat}, "
                f"recent frames {client.received[-6:]}"
            ) from None
        if message["type"] == "your_turn":
            assert message["seq"] == client.last_seq, (message["seq"], client.last_seq)
            assert turn_seat in (client.seat, None), (turn_seat, client.received[-6:])
            if act:
                action = random_choice(message["legal"], rng)
                await client.send({"type": "act", "action": action})
            return True
        assert message["type"] != "error", message
        if message["type"] == "snapshot":
            turn_seat = None if message["view"] is None else message["view"]["to_act"]
        elif message["type"] == "event" and not await on_event(client, message["event"]):
            return False
        if message["type"] == "event" and message["event"]["kind"] == "turn":
            turn_seat = message["event"]["seat"]


async def on_event(client: WireClient, event: Message) -> bool:
    """False when the table is over; the next deal asked for after each played one."""
    if event["kind"] == "score" and event["sheet"].get("status") == "played":
        await client.send({"type": "next_deal"})
    return bool(event["kind"] != "table_over")
