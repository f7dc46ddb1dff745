"""A server with a history database, and players of duplicate events over protocol 2.

The players are raw WebSocket clients (no library of ours), signed up, playing each
turn with a random legal action from their own seeded generator: the same entrant
plays the same way every run, so an event's scores are known in advance.
"""

from __future__ import annotations

import asyncio
import json
import random
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from server.app import App
from server.duplicate import DuplicateEvent
from server.history import create_event
from server.node.archive import Archive
from server.settings import Settings

from ..wire import random_choice

Message = dict[str, Any]
SEED = bytes(range(16))  # the test events' seed: their cards are the same every run


@asynccontextmanager
async def history_app(tmp_path: Path, **settings: Any) -> AsyncIterator[App]:
    """A node on the memory store with a SQLite history, AI at ``basic`` by default."""
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.db'}")
    options: dict[str, Any] = {
        "port": 0,
        "next_deal_seconds": 0.2,
        "duplicate_ai_level": "basic",
        "connections_per_address": 0,
        "rate_per_second": 1000.0,
        "rate_burst": 2000,
    }
    options.update(settings)
    running = await App.start(Settings(**options), archive=archive)
    try:
        yield running
    finally:
        await running.stop(drain_seconds=0)


async def new_event(app: App, deals: int, kind: str = "robot", name: str = "Test") -> int:
    assert app.node.archive is not None and app.node.archive.engine is not None
    now = datetime.now(UTC)
    event = DuplicateEvent(
        name,
        SEED,
        deals,
        now - timedelta(hours=1),
        now + timedelta(hours=1),
        kind,  # type: ignore[arg-type]
    )
    return await create_event(app.node.archive.engine, event)


async def entrants(app: App, event_id: int, *names: str, first_seed: int = 1) -> list[Player]:
    """Players signed up on ``app`` as ``names`` (random seeds ``first_seed``, the next...),
    each entered in the event."""
    url = f"ws://127.0.0.1:{app.port}/"
    players = []
    for seed, name in enumerate(names, first_seed):
        player = await Player.sign_up(url, name, seed)
        entered = await player.ask(
            {"type": "duplicate_enter", "event_id": event_id}, "duplicate_entered"
        )
        player.entry_id = entered["event"]["entry_id"]
        players.append(player)
    return players


@dataclass
class Player:
    """One signed-up player over protocol 2 (``tarot.v2.json``)."""

    ws: ClientConnection
    name: str
    rng: random.Random
    account_id: int = 0
    entry_id: int | None = None  # its entry in the event ``entrants`` entered it in
    seat: int | None = None
    table_id: str | None = None
    received: list[Message] = field(default_factory=list)
    scores: list[Message] = field(default_factory=list)  # every ``score`` event seen
    next_id: int = 0
    # Frames an ``ask`` read as its answer that the table's play still needs: protocol 2
    # answers a change with the ``events`` frame that carries its ``re`` (no ``ack``).
    unread: list[Message] = field(default_factory=list)

    @classmethod
    async def sign_up(cls, url: str, name: str, seed: int) -> Player:
        ws = await connect(url, subprotocols=["tarot.v2.json"], max_queue=None)  # type: ignore[list-item]
        player = cls(ws, name, random.Random(seed))
        await player.ask({"type": "hello", "protocol": 2}, "welcome")
        signed = await player.ask(
            {"type": "sign_up", "name": name, "password": "correct horse 1"}, "signed_in"
        )
        player.account_id = signed["account"]["id"]
        return player

    async def send(self, message: Message) -> None:
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = 60.0) -> Message:
        if self.unread:
            return self.unread.pop(0)
        message: Message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.received.append(message)
        if message["type"] == "joined":
            self.seat, self.table_id = message["seat"], message["table_id"]
        return message

    async def ask(self, message: Message, expect: str, refused: bool = False) -> Message:
        """Send with an id; the answer of type ``expect`` (or the ``error`` if ``refused``)."""
        self.next_id += 1
        await self.send({**message, "id": self.next_id})
        while True:
            answer = await self.recv()
            if answer.get("re") != self.next_id:
                continue
            if answer["type"] == "error" and not refused:
                raise AssertionError(f"{self.name}: refused: {answer}")
            if refused:
                assert answer["type"] == "error", answer
            elif expect == "ack" and answer["type"] == "events":
                self.unread.append(answer)
            else:
                assert answer["type"] == expect, answer
            return answer

    async def refused(self, message: Message) -> str:
        """The code of the error ``message`` gets."""
        return str((await self.ask(message, "error", refused=True))["code"])

    async def play_until_over(self, timeout: float = 120.0) -> Message:
        """Answer every turn with a random legal action until the table is over; the last
        ``score`` event."""
        score: Message | None = None
        async with asyncio.timeout(timeout):
            while True:
                message = await self.recv(timeout)
                for event, turn in _events_and_turns(message):
                    if event is not None and event["kind"] == "score":
                        score = event
                        self.scores.append(event)
                    if event is not None and event["kind"] == "table_over":
                        assert score is not None
                        return score
                    if turn is not None:
                        action = random_choice(turn["legal"], self.rng)
                        await self.send({"type": "act", "action": action})
                if message["type"] == "error":
                    raise AssertionError(f"{self.name}: refused: {message}")


def _events_and_turns(message: Message) -> list[tuple[Message | None, Message | None]]:
    """The table events and turns of a frame, one frame per event or batched (``events``)."""
    if message["type"] == "event":
        return [(message["event"], None)]
    if message["type"] == "your_turn":
        return [(None, message)]
    if message["type"] == "events":
        found: list[tuple[Message | None, Message | None]] = [
            (item["event"], None) for item in message["events"]
        ]
        if message.get("your_turn"):
            found.append((None, message["your_turn"]))
        return found
    if message["type"] == "snapshot" and message.get("your_turn"):
        return [(None, message["your_turn"])]
    return []


async def http_get(app: App, path: str) -> tuple[int, Any]:
    """``GET path`` on the node: its status and JSON body."""

    def fetch() -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{app.port}{path}", timeout=10) as r:
                return int(r.status), r.read()
        except urllib.error.HTTPError as e:
            return int(e.code), e.read()

    status, body = await asyncio.to_thread(fetch)
    return status, json.loads(body)
