"""Bad input of every kind gets a typed error, changes nothing, and keeps the connection."""

from __future__ import annotations

import asyncio
import json
import random

import msgpack
import pytest

from server.app import App
from server.table import transitions

from .test_tables import create
from .wire import Message, WireClient, is_event


async def refused(client: WireClient, frame: str | bytes | Message) -> Message:
    if isinstance(frame, dict):
        await client.send(frame)
    else:
        await client.send_raw(frame)
    return await client.until(lambda m: m["type"] == "error")


async def still_open(client: WireClient) -> None:
    await client.send({"type": "ping"})
    assert (await client.until(lambda m: m["type"] in ("pong", "error")))["type"] == "pong"


async def test_undecodable_frames_unknown_types_and_schema_violations(url: str) -> None:
    client = await WireClient.open(url)
    cases: list[tuple[str | bytes | Message, str]] = [
        ("{not json", "bad_frame"),
        (b"\x93\x01\x02", "bad_frame"),  # binary on a JSON connection
        ("[1, 2]", "bad_frame"),
        ({"type": "dance"}, "unknown_type"),
        ({"kind": "no type"}, "unknown_type"),
        ({"type": "join"}, "invalid_message"),
        ({"type": "join", "table_id": "x", "seat": 7}, "invalid_message"),
        ({"type": "act", "action": {"kind": "play", "card": "T22"}}, "invalid_message"),
        ({"type": "ping", "extra": 1}, "invalid_message"),
    ]
    for frame, code in cases:
        error = await refused(client, frame)
        assert error["code"] == code, (frame, error)
        assert error["message"]
    await still_open(client)


async def test_msgpack_connections_refuse_text_frames_and_bad_msgpack(url: str) -> None:
    client = await WireClient.open(url, "msgpack")
    assert (await refused(client, '{"type": "ping"}'))["code"] == "bad_frame"
    assert (await refused(client, b"\xc1"))["code"] == "bad_frame"  # never-used msgpack byte
    assert (await refused(client, msgpack.packb([1])))["code"] == "bad_frame"
    await still_open(client)


async def test_hello_first_and_the_protocol_version_is_checked(url: str) -> None:
    client = await WireClient.open(url, hello=False)
    assert (await refused(client, {"type": "list_tables"}))["code"] == "hello_required"
    error = await refused(client, {"type": "hello", "protocol": 99})
    assert error["code"] == "unsupported_version"
    await client.send({"type": "hello", "protocol": 1})
    assert (await client.recv())["type"] == "welcome"
    await still_open(client)


async def test_a_v2_message_on_protocol_1_is_unknown_type_whatever_its_fields(url: str) -> None:
    client = await WireClient.open(url)  # version 1
    for message in (
        {"type": "chat", "preset": "hello"},
        {"type": "chat", "id": 7},  # neither preset nor text: its schema would refuse it
        {"type": "mute"},
        {"type": "ready"},
        {"type": "queue", "deals": 0},
        {"type": "report"},
        {"type": "duplicate_show"},
    ):
        error = await refused(client, message)
        assert error["code"] == "unknown_type", (message, error)
        assert error["message"] == f"unknown message type {message['type']!r} in protocol 1"
        assert error.get("re") == message.get("id")
    await still_open(client)


async def test_before_hello_any_message_is_hello_required_whatever_its_fields(url: str) -> None:
    client = await WireClient.open(url, hello=False)
    for message in ({"type": "join", "id": 3}, {"type": "act", "action": {"kind": "x"}}):
        error = await refused(client, message)
        assert error["code"] == "hello_required", (message, error)
        assert error.get("re") == message.get("id")
    assert (await refused(client, {"type": "dance"}))["code"] == "unknown_type"
    assert (await refused(client, {"type": "hello"}))["code"] == "invalid_message"


async def test_oversized_frames_get_an_error_and_the_connection_stays(url: str) -> None:
    client = await WireClient.open(url)
    big = json.dumps({"type": "hello", "protocol": 1, "client": "x" * 70_000})
    assert (await refused(client, big))["code"] == "frame_too_large"
    await still_open(client)


async def test_a_flood_is_rate_limited_then_closed_as_abuse(app: App, url: str) -> None:
    client = await WireClient.open(url)
    burst = app.node.settings.rate_burst
    for _ in range(burst + 20):
        await client.send({"type": "ping"})
    replies = [await client.recv() for _ in range(burst + 20)]
    codes = [r.get("code") for r in replies if r["type"] == "error"]
    assert "rate_limited" in codes
    # Going on past the abuse threshold closes the connection with a bye.
    for _ in range(app.node.settings.abuse_strikes + 10):
        await client.send_raw('{"type":"ping"}')
    bye = await client.until(lambda m: m["type"] == "bye", timeout=20)
    assert bye["reason"] == "abuse"
    # The closing handshake completes although the server had a queue full of the
    # flood to read past (it used to wait out its 10 s close time-out, then abort).
    async with asyncio.timeout(5):
        await client.ws.wait_closed()
    assert (client.ws.close_code, client.ws.close_reason) == (1008, "rate limit")


async def test_lobby_refusals_unknown_table_full_table_bad_token(url: str) -> None:
    client = await WireClient.open(url)
    assert (await refused(client, {"type": "join", "table_id": "nope"}))["code"] == "unknown_table"
    assert (await refused(client, {"type": "watch", "table_id": "nope"}))["code"] == "unknown_table"
    table_id = await create(client)
    players = []
    for seat in range(3):
        player = await WireClient.open(url)
        await player.request({"type": "join", "table_id": table_id, "seat": seat}, "joined")
        players.append(player)
    taken = await refused(client, {"type": "join", "table_id": table_id, "seat": 0})
    assert taken["code"] == "table_full"
    await client.request({"type": "join", "table_id": table_id}, "joined")  # the last free seat
    late = await WireClient.open(url)
    assert (await refused(late, {"type": "join", "table_id": table_id}))["code"] == "table_full"
    for token in ("nope", f"{table_id}.forged", "x" * 100):
        assert (await refused(late, {"type": "resume", "token": token}))["code"] == "bad_token"
    assert (await refused(late, {"type": "act", "action": {"kind": "bid", "contract": "pass"}}))[
        "code"
    ] == "not_seated"
    await still_open(late)


async def test_not_your_turn_and_illegal_actions_change_nothing(app: App, url: str) -> None:
    host = await WireClient.open(url)
    table_id = await create(host)
    clients = []
    for seat in range(4):
        client = await WireClient.open(url)
        await client.request({"type": "join", "table_id": table_id, "seat": seat}, "joined")
        clients.append(client)
    turn = await clients[0].until(lambda m: m["type"] == "event" and m["event"]["kind"] == "turn")
    to_act = turn["event"]["seat"]
    waiting = clients[(to_act + 1) % 4]
    runtime = app.node.runtimes.get(table_id) or await app.node.runtime(table_id)
    version = runtime.data.version
    error = await refused(waiting, {"type": "act", "action": {"kind": "bid", "contract": "garde"}})
    assert error["code"] == "not_your_turn"
    actor = clients[to_act]
    await actor.until(lambda m: m["type"] == "your_turn")
    error = await refused(actor, {"type": "act", "action": {"kind": "play", "card": "T21"}})
    assert error["code"] == "illegal_action" and error["reason"] == "wrong_phase"
    await actor.send({"type": "act", "action": {"kind": "bid", "contract": "garde"}})
    await actor.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "bid")
    # The next seat may not bid below garde: R5, and the table did not move.
    nxt = clients[(to_act + 1) % 4]
    await nxt.until(lambda m: m["type"] == "your_turn")
    before = runtime.data.version
    error = await refused(nxt, {"type": "act", "action": {"kind": "bid", "contract": "prise"}})
    assert (error["code"], error["rule"], error["reason"]) == (
        "illegal_action",
        "R5",
        "illegal_bid",
    )
    assert runtime.data.version == before
    assert version < before
    await still_open(nxt)


async def test_the_server_survives_random_garbage(url: str) -> None:
    """Fuzz: random frames never crash the server or close a well-behaved connection."""
    rng = random.Random(11)
    client = await WireClient.open(url)
    pieces = [
        '{"type":',
        '"act"',
        '"action"',
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        '"kind"',
        "null",
        "1e999",
        '"T1"',
        '"join"',
        '"seat"',
        "-1",
        "true",
        '"\\u0000"',
    ]
    for _ in range(150):
        frame = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
        await client.send_raw(frame)
        reply = await client.recv()
        assert reply["type"] in ("error", "pong", "tables"), reply
    await still_open(client)


async def test_an_unexpected_error_is_answered_internal_and_changes_nothing(
    app: App, url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A bug met while handling one message (here: dealing fails) costs that message only."""
    client = await WireClient.open(url)
    table_id = await create(client, deals=1)
    await client.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    version = (await app.node.runtime(table_id)).data.version

    def broken() -> str:
        raise RuntimeError("injected: the shuffle broke")

    monkeypatch.setattr(transitions, "new_seed", broken)
    error = await refused(client, {"type": "start", "id": "go"})
    assert (error["code"], error["re"]) == ("internal", "go")
    assert "nothing changed" in error["message"]
    assert "injected" not in error["message"]  # the inside stays inside
    assert any(r.exc_info and "injected" in str(r.exc_info[1]) for r in caplog.records)
    runtime = await app.node.runtime(table_id)
    assert (runtime.data.version, runtime.data.status) == (version, "waiting")
    # The connection and the table go on: once the bug is gone, the same start works.
    monkeypatch.undo()
    await client.send({"type": "start", "id": "again"})
    await client.until(is_event("deal_started"))
    assert (await client.until(lambda m: m["type"] == "ack"))["re"] == "again"
