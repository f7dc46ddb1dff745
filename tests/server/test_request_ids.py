"""Request ids (PROTOCOL.md section 4): an ``id`` comes back as ``re`` on its answer or error.

``start``, ``act`` and ``next_deal`` with an ``id`` get an ``ack`` once done, after
the change's own events; without an ``id`` nothing is added to the traffic.
"""

from __future__ import annotations

import random

import pytest

from server.app import App

from .test_tables import create
from .wire import Message, WireClient, is_event, random_choice


async def answer(client: WireClient, message: Message) -> Message:
    """Send ``message`` and return the first message that carries its ``re``."""
    await client.send(message)
    return await client.until(lambda m: "re" in m)


def played_score(message: Message) -> bool:
    """The score of a deal played out (an all-pass deal is scored too, then dealt again)."""
    return is_event("score")(message) and message["event"]["sheet"]["status"] == "played"


def last_turn(messages: list[Message]) -> Message | None:
    turns = [m for m in messages if m["type"] == "your_turn"]
    return turns[-1] if turns else None


@pytest.mark.parametrize("codec", ["json", "msgpack"])
async def test_every_direct_answer_echoes_the_id_as_re(url: str, codec: str) -> None:
    client = await WireClient.open(url, codec, hello=False)
    welcome = await answer(client, {"type": "hello", "protocol": 1, "id": "h"})
    assert (welcome["type"], welcome["re"]) == ("welcome", "h")
    assert (await answer(client, {"type": "ping", "id": 2**53 - 1}))["re"] == 2**53 - 1
    tables = await answer(client, {"type": "list_tables", "id": -4})
    assert (tables["type"], tables["re"]) == ("tables", -4)
    created = await answer(client, {"type": "create_table", "options": {"deals": 1}, "id": 5})
    assert (created["type"], created["re"]) == ("table_created", 5)
    table_id = created["table"]["table_id"]
    joined = await answer(client, {"type": "join", "table_id": table_id, "seat": 2, "id": 6})
    assert (joined["type"], joined["re"]) == ("joined", 6)
    left = await answer(client, {"type": "leave", "id": "bye now"})
    assert (left["type"], left["re"]) == ("left", "bye now")
    watching = await answer(client, {"type": "watch", "table_id": table_id, "id": 8})
    assert (watching["type"], watching["re"]) == ("watching", 8)
    await client.request({"type": "leave"}, "left")
    await client.request({"type": "join", "table_id": table_id, "seat": 1}, "joined")
    token = client.token
    other = await WireClient.open(url, codec)
    resumed = await answer(other, {"type": "resume", "token": token, "id": "r"})
    assert (resumed["type"], resumed["re"]) == ("joined", "r")


async def test_without_an_id_no_answer_has_re_and_no_ack_is_sent(url: str) -> None:
    client = await WireClient.open(url)
    table_id = await create(client, deals=1)
    await client.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    await client.send({"type": "start"})
    await client.send({"type": "ping"})
    await client.until(lambda m: m["type"] == "pong")
    assert all("re" not in m for m in client.received)
    assert all(m["type"] != "ack" for m in client.received)


async def test_act_start_and_next_deal_are_acked_after_their_events(url: str) -> None:
    client = await WireClient.open(url)
    table_id = await create(client, deals=2)
    await client.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    await client.send({"type": "start", "id": "go"})
    ack = await client.until(lambda m: m["type"] == "ack")
    # The deal was dealt before the ack: its events came first, numbered up to ack.seq.
    assert (ack["re"], ack["table_id"]) == ("go", table_id)
    assert ack["seq"] == client.last_seq
    assert any(m["type"] == "event" and m["event"]["kind"] == "hand" for m in client.received)
    rng = random.Random(3)
    acts = 0
    # Seat 0 may bid first: its turn came with the deal, before the ack.
    turn: Message | None = last_turn(client.received)
    while True:
        if turn is None:
            turn = await client.until(
                lambda m: m["type"] == "your_turn" or played_score(m), timeout=60
            )
        if turn["type"] != "your_turn":
            break
        acts += 1
        action = random_choice(turn["legal"], rng)
        before = len(client.received)
        await client.send({"type": "act", "action": action, "id": acts})
        ack = await client.until(lambda m: m["type"] == "ack")
        assert (ack["re"], ack["seq"]) == (acts, client.last_seq)
        shown = [m["event"] for m in client.received[before:] if m["type"] == "event"]
        assert shown, "the action's own event comes before its ack"
        if any(played_score(m) for m in client.received[before:]):
            break  # this seat played the deal's last card: the score came with it
        # An action can lead straight to this seat's next turn (the last bid: the discard).
        turn = last_turn(client.received[before:])
    assert acts > 0
    await client.send({"type": "next_deal", "id": "ready"})
    ack = await client.until(lambda m: m["type"] == "ack")
    assert ack["re"] == "ready"
    (played,) = [m["event"]["deal_number"] for m in client.received if played_score(m)]
    assert any(
        is_event("deal_started")(m) and m["event"]["deal_number"] == played + 1
        for m in client.received
    )


async def test_refusals_carry_the_id_of_the_message_they_refuse(app: App, url: str) -> None:
    client = await WireClient.open(url)
    cases: list[tuple[Message, str]] = [
        ({"type": "dance", "id": 1}, "unknown_type"),
        ({"type": "join", "id": 2}, "invalid_message"),
        ({"type": "act", "action": {"kind": "play", "card": "T22"}, "id": 3}, "invalid_message"),
        ({"type": "ping", "extra": 1, "id": "x"}, "invalid_message"),
        ({"type": "join", "table_id": "nope", "id": 4}, "unknown_table"),
        ({"type": "act", "action": {"kind": "bid", "contract": "pass"}, "id": 5}, "not_seated"),
        ({"type": "hello", "protocol": 9, "id": 6}, "unsupported_version"),
    ]
    for message, code in cases:
        error = await answer(client, message)
        assert (error["type"], error["code"], error["re"]) == ("error", code, message["id"])
    # Table refusals too: playing a card while bidding names the request that did it.
    table_id = await create(client, deals=1)
    await client.request({"type": "join", "table_id": table_id, "seat": 3}, "joined")
    await client.request({"type": "start"}, "event")
    await client.until(lambda m: m["type"] == "your_turn")
    error = await answer(
        client, {"type": "act", "action": {"kind": "play", "card": "T21"}, "id": "early"}
    )
    assert (error["type"], error["code"], error["re"]) == ("error", "illegal_action", "early")
    # A flood: each rate-limited message still names itself.
    burst = app.node.settings.rate_burst
    for i in range(burst + 20):
        await client.send({"type": "ping", "id": i})
    replies = [
        await client.until(lambda m: m["type"] in ("pong", "error")) for _ in range(burst + 20)
    ]
    limited = [r for r in replies if r["type"] == "error"]
    assert limited and all(r["code"] == "rate_limited" for r in limited)
    assert sorted(r["re"] for r in replies) == list(range(burst + 20))


@pytest.mark.parametrize(
    "bad_id", [True, 1.5, "", "x" * 65, 2**53, -(2**53), [1], {"a": 1}], ids=repr
)
async def test_a_bad_id_is_an_invalid_message_without_re(url: str, bad_id: object) -> None:
    client = await WireClient.open(url)
    await client.send({"type": "ping", "id": bad_id})
    error = await client.until(lambda m: m["type"] in ("pong", "error"))
    assert error["type"] == "error" and error["code"] == "invalid_message"
    assert "re" not in error
    assert "id" in error["message"]
