"""A small raw-protocol client for server tests: real websockets, no library of ours.

It speaks the documented protocol directly, so the server is tested against the
doc, not against our own client library.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

Message = dict[str, Any]


OPEN_CLIENTS: list[WireClient] = []  # closed after each test (conftest)


class WireClient:
    def __init__(self, ws: ClientConnection, binary: bool) -> None:
        self.ws = ws
        self.binary = binary
        self.received: list[Message] = []
        self.token: str | None = None
        self.seat: int | None = None
        self.table_id: str | None = None
        self.last_seq = 0

    @classmethod
    async def open(
        cls, url: str, codec: str = "json", hello: bool = True, version: int = 1
    ) -> WireClient:
        sub = f"tarot.v{version}.{codec}"
        # No read limit: a test that leaves messages unread must not stall the closing
        # handshake (a full queue stops reading, close() then waits out its timeout).
        ws = await connect(
            url,
            subprotocols=[sub],  # type: ignore[list-item]
            max_size=2**22,
            max_queue=None,
        )
        client = cls(ws, codec == "msgpack")
        OPEN_CLIENTS.append(client)
        if hello:
            await client.send({"type": "hello", "protocol": version})
            welcome = await client.recv()
            assert welcome["type"] == "welcome", welcome
        return client

    async def send(self, message: Message) -> None:
        if self.binary:
            await self.ws.send(msgpack.packb(message, use_bin_type=True))
        else:
            await self.ws.send(json.dumps(message))

    async def send_raw(self, frame: str | bytes) -> None:
        await self.ws.send(frame)

    async def recv(self, timeout: float = 10.0) -> Message:
        frame = await asyncio.wait_for(self.ws.recv(), timeout)
        if self.binary:
            assert isinstance(frame, bytes), "msgpack connections get binary frames"
            message: Message = msgpack.unpackb(frame, raw=False)
        else:
            assert isinstance(frame, str), "JSON connections get text frames"
            message = json.loads(frame)
        self.received.append(message)
        if message["type"] == "event":
            assert message["seq"] == self.last_seq + 1, (message["seq"], self.last_seq)
            self.last_seq = message["seq"]
        elif message["type"] == "events":  # version 2: one commit's events in one frame
            for numbered in message["events"]:
                assert numbered["seq"] == self.last_seq + 1, (numbered["seq"], self.last_seq)
                self.last_seq = numbered["seq"]
        elif message["type"] == "snapshot":
            self.last_seq = message["seq"]
        elif message["type"] == "joined":
            self.token, self.seat, self.table_id = (
                message["token"],
                message["seat"],
                message["table_id"],
            )
        return message

    async def request(self, message: Message, expect: str) -> Message:
        """Send and return the first reply of type ``expect`` (or raise on an error)."""
        await self.send(message)
        return await self.until(lambda m: m["type"] in (expect, "error"), check_error=True)

    async def until(
        self, predicate: Callable[[Message], bool], timeout: float = 20.0, check_error: bool = False
    ) -> Message:
        async with asyncio.timeout(timeout):
            while True:
                message = await self.recv(timeout)
                if predicate(message):
                    if check_error and message["type"] == "error":
                        raise AssertionError(f"server refused: {message}")
                    return message

    async def close(self) -> None:
        await self.ws.close()


async def close_all() -> None:
    while OPEN_CLIENTS:
        await OPEN_CLIENTS.pop().close()


def random_choice(legal: Message, rng: random.Random) -> Message:
    """A random legal action from a ``your_turn``'s ``legal`` (any rule-abiding discard)."""
    if legal["bids"]:
        return {"kind": "bid", "contract": rng.choice(legal["bids"])}
    if legal["discard"]:
        rule = legal["discard"]
        optional = [c for c in rule["allowed"] if c not in rule["required"]]
        cards = rule["required"] + rng.sample(optional, rule["count"] - len(rule["required"]))
        return {"kind": "discard", "cards": cards}
    if legal["chelem"]:
        return {"kind": "chelem", "announce": False}
    return {"kind": "play", "card": rng.choice(legal["cards"])}


async def play_until(
    client: WireClient, done: Callable[[Message], bool], rng: random.Random, timeout: float = 60.0
) -> Message:
    """Answer every ``your_turn`` with a random legal action until ``done(message)``."""
    async with asyncio.timeout(timeout):
        while True:
            message = await client.recv(timeout)
            if message["type"] == "your_turn":
                await client.send({"type": "act", "action": random_choice(message["legal"], rng)})
            elif message["type"] == "error":
                raise AssertionError(f"server refused a legal-looking action: {message}")
            if done(message):
                return message


def is_event(kind: str) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "event" and m["event"]["kind"] == kind
