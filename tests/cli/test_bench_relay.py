"""The bare relay of ``tarot bench server``: the checks a relay makes, and its frames."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import msgpack
import pytest
from websockets.asyncio.client import ClientConnection, connect

from cli.bench.clients import open_seat, pack
from cli.bench.processes import scrape
from cli.bench.relay import relay_server
from cli.local_servers import free_port
from engine import CODES


@pytest.fixture
async def relay_port() -> AsyncIterator[int]:
    port = free_port()
    server = asyncio.create_task(relay_server(port))
    for _ in range(100):
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            break
        await asyncio.sleep(0.02)
    yield port
    server.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await server


async def receive(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = msgpack.unpackb(await ws.recv(), raw=False)
    return message


async def table(port: int) -> list[ClientConnection]:
    url = f"ws://127.0.0.1:{port}/"
    lobby = await open_lobby(url)
    await lobby.send(pack({"type": "create_table"}))
    table_id = (await receive(lobby))["table"]["table_id"]
    return [await open_seat(url, table_id, seat) for seat in range(4)]


async def open_lobby(url: str) -> ClientConnection:
    ws = await connect(url, subprotocols=["tarot.v1.msgpack"])  # type: ignore[list-item]
    await ws.send(pack({"type": "hello", "protocol": 1}))
    assert (await receive(ws))["type"] == "welcome"
    return ws


async def test_the_relay_checks_turn_and_hand_and_sends_five_frames_a_play(
    relay_port: int,
) -> None:
    seats = await table(relay_port)
    turn = await receive(seats[0])
    assert turn["type"] == "your_turn" and turn["legal"]["seat"] == 0
    hand = turn["legal"]["cards"]
    assert len(hand) == 18 and turn["legal"]["bids"] == []
    # Out of turn, and a card the seat does not hold: refused, nothing relayed.
    await seats[1].send(pack({"type": "act", "action": {"kind": "play", "card": hand[0]}}))
    assert (await receive(seats[1]))["code"] == "not_your_turn"
    stranger = next(code for code in CODES if code not in hand)  # another seat's card
    await seats[0].send(pack({"type": "act", "action": {"kind": "play", "card": stranger}}))
    assert (await receive(seats[0]))["code"] == "not_in_hand"
    # A play reaches the four seats as the server's event, then the next seat's turn.
    await seats[0].send(pack({"type": "act", "action": {"kind": "play", "card": hand[0]}}))
    for ws in seats:
        event = await receive(ws)
        assert event["seq"] == turn["seq"] + 1
        assert event["event"] == {"kind": "card", "seat": 0, "card": hand[0]}
    after = await receive(seats[1])
    assert after["type"] == "your_turn" and after["legal"]["seat"] == 1
    assert hand[0] not in after["legal"]["cards"] and len(after["legal"]["cards"]) == 18
    assert await asyncio.to_thread(scrape, relay_port) == {"tarot_actions_applied_total": 1.0}
