"""PROTOCOL.md section 12, "Which error wins" and "Observed and kept", against a real node.

One deal is walked phase by phase with four human seats; at each phase every
kind of wrong action is sent by a seat that is to act and by one that is not,
and the error the doc promises is checked. A second test holds the server to
the doc's word on ``deadline_ms`` while a player is away past the grace period.
"""

from __future__ import annotations

import asyncio
import random
import time

import msgpack
import pytest
from websockets.exceptions import ConnectionClosed

from ..deal_seeds import deal_from, ordinary, where
from .test_tables import create, seat_four
from .wire import Message, WireClient, is_event, play_until

TRUMPS = [f"T{n}" for n in range(1, 11)]


async def refused(client: WireClient, action: Message) -> tuple[str, str | None]:
    """Send ``action``; return the error's code and reason (it must be refused)."""
    await client.send({"type": "act", "action": action})
    error = await client.until(lambda m: m["type"] == "error")
    return error["code"], error["reason"]


async def next_turn(watcher: WireClient, clients: list[WireClient]) -> tuple[int, Message]:
    """The seat whose turn the table announces, and its own ``your_turn``."""
    turn = await watcher.until(is_event("turn"))
    seat = turn["event"]["seat"]
    return seat, await clients[seat].until(lambda m: m["type"] == "your_turn")


async def test_which_error_wins_in_each_phase_of_a_deal(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_from(monkeypatch, where("ordinary", ordinary))  # no petit sec cancels it
    host = await WireClient.open(url)
    table_id = await create(host, deals=1)
    watcher = await WireClient.open(url)
    await watcher.request({"type": "watch", "table_id": table_id}, "snapshot")
    clients = await seat_four(url, table_id, ("json",) * 4)

    # Bidding: no taker yet, so the seat comes first for every kind of action.
    first, _ = await next_turn(watcher, clients)
    other = clients[(first + 1) % 4]
    assert await refused(other, {"kind": "chelem", "announce": True}) == (
        "not_your_turn",
        "not_your_turn",
    )
    assert await refused(other, {"kind": "discard", "cards": TRUMPS[:5]}) == (
        "not_your_turn",
        "not_your_turn",
    )
    assert await refused(other, {"kind": "bid", "contract": "prise"}) == (
        "not_your_turn",
        "not_your_turn",
    )
    to_act = clients[first]
    assert await refused(to_act, {"kind": "chelem", "announce": False}) == (
        "illegal_action",
        "wrong_phase",
    )
    assert await refused(to_act, {"kind": "discard", "cards": TRUMPS[:6]}) == (
        "illegal_action",
        "wrong_phase",
    )
    await to_act.send({"type": "act", "action": {"kind": "bid", "contract": "prise"}})
    taker = first
    for _ in range(3):
        seat, _ = await next_turn(watcher, clients)
        await clients[seat].send({"type": "act", "action": {"kind": "bid", "contract": "pass"}})

    # The discard: a non-taker's chelem is the chelem rule's refusal, not the turn's.
    seat, turn = await next_turn(watcher, clients)
    assert seat == taker
    defender = clients[(taker + 1) % 4]
    assert await refused(defender, {"kind": "chelem", "announce": True}) == (
        "illegal_action",
        "illegal_chelem",
    )
    assert await refused(defender, {"kind": "bid", "contract": "garde"}) == (
        "not_your_turn",
        "not_your_turn",
    )
    assert await refused(defender, {"kind": "discard", "cards": TRUMPS[:5]}) == (
        "not_your_turn",
        "not_your_turn",
    )
    rule = turn["legal"]["discard"]
    optional = [c for c in rule["allowed"] if c not in rule["required"]]
    six = rule["required"] + optional[: rule["count"] - len(rule["required"])]
    # Five cards (or seven) are the rules' refusal, R6, not a schema error.
    for cards in (six[:5], [*six, *[c for c in optional if c not in six][:1]]):
        assert await refused(clients[taker], {"kind": "discard", "cards": cards}) == (
            "illegal_action",
            "illegal_discard",
        )
    assert await refused(clients[taker], {"kind": "chelem", "announce": False}) == (
        "illegal_action",
        "wrong_phase",
    )
    await clients[taker].send({"type": "act", "action": {"kind": "discard", "cards": six}})

    # The chelem decision.
    seat, _ = await next_turn(watcher, clients)
    assert seat == taker
    assert await refused(defender, {"kind": "chelem", "announce": True}) == (
        "illegal_action",
        "illegal_chelem",
    )
    assert await refused(defender, {"kind": "chelem", "announce": False}) == (
        "illegal_action",
        "illegal_chelem",
    )
    assert await refused(defender, {"kind": "play", "card": "1S"}) == (
        "not_your_turn",
        "not_your_turn",
    )
    assert await refused(clients[taker], {"kind": "bid", "contract": "garde"}) == (
        "illegal_action",
        "wrong_phase",
    )
    await clients[taker].send({"type": "act", "action": {"kind": "chelem", "announce": False}})

    # The play: the first card.
    leader, turn = await next_turn(watcher, clients)
    idle = clients[(leader + 1) % 4]
    assert await refused(idle, {"kind": "play", "card": turn["legal"]["cards"][0]}) == (
        "not_your_turn",
        "not_your_turn",
    )
    assert await refused(idle, {"kind": "poignee", "cards": TRUMPS}) == (
        "not_your_turn",
        "not_your_turn",
    )
    # Chelem once the play began: refused by the chelem rule, the taker's too.
    for seat in range(4):
        assert await refused(clients[seat], {"kind": "chelem", "announce": True}) == (
            "illegal_action",
            "illegal_chelem",
        )
    await clients[leader].send(
        {"type": "act", "action": {"kind": "play", "card": turn["legal"]["cards"][0]}}
    )
    # A poignee after your first card is the poignee rule's refusal, your turn or not.
    await next_turn(watcher, clients)
    assert await refused(clients[leader], {"kind": "poignee", "cards": TRUMPS}) == (
        "illegal_action",
        "illegal_poignee",
    )


async def test_deadline_ms_is_sent_for_an_away_player_whose_turn_the_ai_takes_at_once(
    url: str,
) -> None:
    host = await WireClient.open(url)
    table_id = await create(host, turn_seconds=600, grace_seconds=0)
    watcher = await WireClient.open(url)
    await watcher.request({"type": "watch", "table_id": table_id}, "snapshot")
    player = await WireClient.open(url)
    await player.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    # A human who stays and answers its turns at once: the table has someone present.
    await host.request({"type": "join", "table_id": table_id, "seat": 1}, "joined")
    steady = asyncio.create_task(play_until(host, lambda m: False, random.Random(1)))
    await player.send({"type": "start"})
    await player.until(is_event("deal_started"))
    await player.close()  # away at once, and past the grace period of 0 s

    async with asyncio.timeout(60):
        for _ in range(2):  # its turns come round; each still names the table's deadline
            turn = await watcher.until(lambda m: is_event("turn")(m) and m["event"]["seat"] == 0)
            deadline = turn["event"]["deadline_ms"]
            assert deadline is not None and deadline > time.time() * 1000 + 500_000
            acted = await watcher.until(
                lambda m: (
                    m["type"] == "event"
                    and m["event"].get("seat") == 0
                    and m["event"]["kind"] != "turn"
                )
            )
            # The AI acted long before the deadline: nobody waited for it.
            assert time.time() * 1000 < deadline - 500_000, acted
    steady.cancel()


async def test_a_text_frame_that_is_not_utf8_closes_with_1007_and_no_error(url: str) -> None:
    client = await WireClient.open(url)
    await client.ws.send(b'{"type": "ping", "x": "\xff"}', text=True)
    with pytest.raises(ConnectionClosed) as closed:
        await client.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    assert [m for m in client.received if m["type"] == "error"] == []


async def test_a_msgpack_bin_value_is_read_as_its_utf8_string(url: str) -> None:
    client = await WireClient.open(url, "msgpack")
    await client.send_raw(msgpack.packb({"type": "join", "table_id": b"abc"}, use_bin_type=True))
    error = await client.recv()
    assert (error["code"], error["message"]) == ("unknown_table", "no table 'abc'")
    host = await WireClient.open(url)
    table_id = await create(host)
    frame = msgpack.packb({"type": "watch", "table_id": table_id.encode()}, use_bin_type=True)
    await client.send_raw(frame)
    watching = await client.recv()
    assert (watching["type"], watching["table_id"]) == ("watching", table_id), watching


async def test_a_msgpack_map_with_bin_keys_is_bad_frame(url: str) -> None:
    client = await WireClient.open(url, "msgpack")
    for data in ({b"type": b"ping"}, {"type": "ping", b"id": 1}, {"type": "ping", 1: 2}):
        await client.send_raw(msgpack.packb(data, use_bin_type=True))
        error = await client.recv()
        assert error["code"] == "bad_frame", (data, error)
        assert error["message"].startswith("cannot decode the frame: "), error
        assert ("a map key that is not a string" in error["message"]) == (1 not in data)
    # Deeper, the message's schema refuses it, and no table is made with default options.
    inner = {"type": "create_table", "options": {b"name": "x"}}
    await client.send_raw(msgpack.packb(inner, use_bin_type=True))
    error = await client.recv()
    assert error["code"] == "invalid_message", error
    assert "Keys should be strings" in error["message"], error
    await client.send({"type": "ping"})
    assert (await client.recv())["type"] == "pong"


@pytest.mark.parametrize("codec", ["json", "msgpack"])
async def test_nesting_too_deep_says_so(url: str, codec: str) -> None:
    client = await WireClient.open(url, codec)
    if codec == "json":
        frames: list[str | bytes] = ['{"x": ' * 5000 + "1" + "}" * 5000, "[" * 30000 + "]" * 30000]
    else:
        frames = [b"\x81\xa1x" * 5000 + b"\x01", b"\x91" * 5000 + b"\xc0"]
    for frame in frames:
        await client.send_raw(frame)
        error = await client.recv()
        expected = ("bad_frame", "cannot decode the frame: it nests too deep")
        assert (error["code"], error["message"]) == expected, error


@pytest.mark.parametrize("codec", ["json", "msgpack"])
async def test_nesting_too_deep_or_not_an_object_is_bad_frame(url: str, codec: str) -> None:
    client = await WireClient.open(url, codec)
    deep_object: object = {"type": "ping"}
    for _ in range(5000):
        deep_object = {"x": deep_object}
    deep_array = "[" * 5000 + "]" * 5000
    frames: list[str | bytes]
    if codec == "json":
        frames = ['{"x": ' * 5000 + "1" + "}" * 5000, deep_array]
    else:
        frames = [b"\x81\xa1x" * 5000 + b"\x01", b"\x91" * 5000 + b"\x90"]
    for frame in frames:
        await client.send_raw(frame)
        error = await client.recv()
        assert error["code"] == "bad_frame", error
    await client.send_raw("[[[]]]" if codec == "json" else msgpack.packb([[[]]]))
    error = await client.recv()
    assert (error["code"], error["message"]) == ("bad_frame", "a message must be an object")
    await client.send({"type": "ping", "extra": {"a": [1, {"b": 2}]}})
    error = await client.recv()
    assert error["code"] == "invalid_message", error
    # The connection is still served.
    await client.send({"type": "ping"})
    assert (await client.recv())["type"] == "pong"


async def test_next_deal_during_a_deal_is_ignored(url: str) -> None:
    client = await WireClient.open(url)
    table_id = await create(client)
    await client.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    await client.send({"type": "start"})
    await client.until(is_event("deal_started"))
    before = len(client.received)
    await client.send({"type": "next_deal"})
    await client.send({"type": "ping"})
    await client.until(lambda m: m["type"] == "pong")
    answered = [m for m in client.received[before:] if m["type"] not in ("event", "your_turn")]
    assert [m["type"] for m in answered] == ["pong"]
    events = [m["event"]["kind"] for m in client.received[before:] if m["type"] == "event"]
    assert "between_deals" not in events and "deal_started" not in events


async def test_a_discard_in_garde_sans_and_any_action_after_the_deal_are_the_rules_refusals(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_from(monkeypatch, where("ordinary", ordinary))
    host = await WireClient.open(url)
    table_id = await create(host, deals=2)
    watcher = await WireClient.open(url)
    await watcher.request({"type": "watch", "table_id": table_id}, "snapshot")
    clients = await seat_four(url, table_id, ("json",) * 4)
    taker, _ = await next_turn(watcher, clients)
    await clients[taker].send({"type": "act", "action": {"kind": "bid", "contract": "garde_sans"}})
    for _ in range(3):
        seat, _ = await next_turn(watcher, clients)
        await clients[seat].send({"type": "act", "action": {"kind": "bid", "contract": "pass"}})
    seat, _ = await next_turn(watcher, clients)
    assert seat == taker  # no discard: the chelem decision
    await clients[taker].send({"type": "act", "action": {"kind": "chelem", "announce": False}})
    leader, turn = await next_turn(watcher, clients)
    # The seat first: a defender's discard is not_your_turn; the leader's, R7's refusal
    # (the chien stays unseen), not wrong_phase.
    discard = {"kind": "discard", "cards": TRUMPS[:6]}
    assert await refused(clients[(leader + 1) % 4], discard) == ("not_your_turn", "not_your_turn")
    await clients[leader].send({"type": "act", "action": discard})
    error = await clients[leader].until(lambda m: m["type"] == "error")
    assert (error["code"], error["reason"], error["rule"]) == (
        "illegal_action",
        "illegal_discard",
        "R7",
    )
    # The rest of the deal at random; then the deal is over for every seat.
    card = turn["legal"]["cards"][0]
    await clients[leader].send({"type": "act", "action": {"kind": "play", "card": card}})
    scored = is_event("score")
    await asyncio.gather(
        *(play_until(c, scored, random.Random(i), timeout=90) for i, c in enumerate(clients))
    )
    for client in clients:
        assert await refused(client, {"kind": "play", "card": "1S"}) == (
            "illegal_action",
            "deal_over",
        )
