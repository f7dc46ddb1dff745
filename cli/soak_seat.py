"""The seat clients of ``tarot soak``: raw-protocol players that check what they get.

Each seat plays random legal actions, reconnects (to any live node) and
resumes with its ``last_seq`` whenever its connection ends, resends what got
``unavailable``, and counts on every connection: events twice or out of
order, snapshots older than what it had, its own actions acknowledged (their
event seen). What the four seats saw of a table is merged by ``seq`` in a
``TableLog``, so an event one connection saw and another saw replaced counts
as lost, and an action present twice in one deal as applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from cli.bench.clients import choose

Message = dict[str, Any]
TRANSIENT = {"unavailable", "rate_limited", "outcome_unknown"}
# Events every connection of a table gets alike; private ones (hand, discard) differ.
PUBLIC = {"deal_started", "bid", "taker", "chelem", "poignee", "card", "trick", "cancelled"}
PUBLIC |= {"score", "record", "table_over", "turn"}
EVENT_OF_ACTION = {"bid": "bid", "play": "card", "discard": "discard", "chelem": "chelem"}
EVENT_OF_ACTION["poignee"] = "poignee"


@dataclass
class Counts:
    """What went wrong (or right) on the connections, summed over every seat."""

    acknowledged: int = 0  # own actions whose event the seat saw
    duplicated: int = 0  # an event with a seq the connection already had
    out_of_order: int = 0  # an event past the next seq (a gap)
    older_snapshots: int = 0  # a snapshot behind the connection's last seq
    resumes: int = 0
    retried: int = 0  # answers `unavailable` (or another transient error), resent
    refused: dict[str, int] = field(default_factory=dict)  # other errors, by code: e.g.
    # not_your_turn for a resent action that had landed after all (PROTOCOL.md, section 14)
    tables_lost: int = 0  # `table_lost` received (a store restarted with AOF must lose none)


@dataclass
class TableLog:
    """One table: its public events by seq as the seats saw them, and its end."""

    table_id: str
    events: dict[int, str] = field(default_factory=dict)
    conflicts: int = 0  # a seq seen with two different public events: a commit lost
    records: dict[int, tuple[int, dict[str, Any]]] = field(default_factory=dict)  # by seq
    sheets: dict[int, tuple[int, dict[str, Any]]] = field(default_factory=dict)  # by seq
    over: bool = False
    lost: bool = False
    seats: list[Seat] = field(default_factory=list)

    def stuck(self) -> bool:
        """Not over (nor lost) when the time was up, or a seat still waiting for its end:
        a connection that was never sent the last events is stuck as well."""
        return (not self.over and not self.lost) or not all(s.done for s in self.seats)

    def where(self) -> dict[str, Any]:
        """Where a table stands (for one that is stuck): its last event, each seat's view."""
        last = max(self.events, default=0)
        return {
            "table_id": self.table_id,
            "last_event": [last, json.loads(self.events[last]) if last else None],
            "seats": [s.where() for s in self.seats],
        }

    def saw(self, seq: int, event: Message) -> None:
        if event["kind"] not in PUBLIC:
            return
        text = json.dumps(event, sort_keys=True)
        known = self.events.setdefault(seq, text)
        if known != text:
            self.conflicts += 1
        if event["kind"] == "score" and known == text:
            self.sheets[seq] = (event["deal_number"], event["sheet"])
        if event["kind"] == "record" and known == text:
            self.records[seq] = (event["deal_number"], event["record"])

    def deals(self) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
        """Each finished deal's record with the sheet the table announced for it (the
        ``score`` of the same deal number nearest in seq; a re-dealt number has several)."""
        out = []
        for seq, (number, record) in sorted(self.records.items()):
            near = [(abs(s - seq), sheet) for s, (n, sheet) in self.sheets.items() if n == number]
            out.append((record, min(near, key=lambda x: x[0])[1] if near else None))
        return out

    def applied_twice(self) -> int:
        """Actions present twice in one deal (a card played twice, a seat bidding twice)."""
        twice, seen = 0, set[tuple[str, Any]]()
        for seq in sorted(self.events):
            event = json.loads(self.events[seq])
            kind = event["kind"]
            if kind in ("deal_started", "cancelled"):
                seen = set()
            elif kind in ("bid", "chelem", "poignee", "card"):
                key = (kind, event["card"] if kind == "card" else event["seat"])
                twice += key in seen
                seen.add(key)
        return twice


class Seat:
    """One player: plays, checks, reconnects, until its table is over (or lost)."""

    def __init__(
        self,
        log: TableLog,
        seat: int,
        urls: Callable[[], list[str]],
        rng: random.Random,
        counts: Counts,
        think: float,
    ) -> None:
        self.log, self.seat, self.urls, self.rng = log, seat, urls, rng
        self.counts, self.think = counts, think
        self.token: str | None = None
        self.last_seq = 0
        self.sent: Message | None = None  # the action in flight (until its event comes)
        self.turn: Message | None = None  # a your_turn not yet reached by the events
        self.turns = 0
        # It said next_deal and no deal has started since: said again on a resumed seat (a
        # resumed seat is told its turns again, not that the table waits for it; a late
        # next_deal is ignored).
        self.ready_said = False
        self.done = False  # its connection saw the table end (or be lost)
        log.seats.append(self)

    def where(self) -> dict[str, Any]:
        where = {"seat": self.seat, "last_seq": self.last_seq, "turns": self.turns}
        return {**where, "sent": self.sent, "done": self.done}

    async def open(self, url: str) -> ClientConnection:
        sub = ["tarot.v1.json"]
        ws = await connect(url, subprotocols=sub, max_size=2**22)  # type: ignore[arg-type]
        await ws.send(json.dumps({"type": "hello", "protocol": 1}))
        return ws

    async def join(self, ws: ClientConnection) -> None:
        await ws.send(
            json.dumps({"type": "join", "table_id": self.log.table_id, "seat": self.seat})
        )

    async def play(self, ws: ClientConnection) -> None:
        """The first connection (already joined), then reconnections, until the table ends."""
        pause = 0.1
        while True:
            try:
                await self.consume(ws)
                self.done = True
                return
            except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError):
                pass
            with contextlib.suppress(Exception):
                await ws.close()
            while True:
                await asyncio.sleep(pause * self.rng.uniform(0.5, 1.5))
                pause = min(2 * pause, 2.0)
                try:
                    ws = await asyncio.wait_for(self.open(self.rng.choice(self.urls())), 10)
                    resume = {"type": "resume", "token": self.token, "last_seq": self.last_seq}
                    await ws.send(json.dumps(resume))
                    self.counts.resumes += 1
                    break
                except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError, IndexError):
                    continue

    async def consume(self, ws: ClientConnection) -> None:
        while not await self.handle(ws, json.loads(await asyncio.wait_for(ws.recv(), 120))):
            if self.turn is not None and self.turn["seq"] <= self.last_seq:
                turn, self.turn = self.turn, None
                if turn["seq"] == self.last_seq:  # else stale: the events moved on
                    await self.act(ws, turn["legal"])
        await ws.close()

    async def handle(self, ws: ClientConnection, message: Message) -> bool:
        """Take one message; True when this seat is done with its table."""
        kind = message["type"]
        if kind == "joined":
            self.token = message["token"]
            if self.ready_said:  # resumed between deals
                await ws.send(json.dumps({"type": "next_deal"}))
        elif kind == "event":
            await self.on_event(ws, message)
            return self.log.over
        elif kind == "snapshot":
            if message["seq"] < self.last_seq:
                self.counts.older_snapshots += 1
            self.last_seq = message["seq"]
            self.sent = None
        elif kind == "your_turn":
            self.turn = message
            self.turns += 1
        elif kind == "error":
            return await self.on_error(ws, message)
        elif kind == "bye":  # the node drains: go to another one
            await ws.close()
            raise ConnectionClosed(None, None)
        return False

    async def on_event(self, ws: ClientConnection, message: Message) -> None:
        seq, event = message["seq"], message["event"]
        if seq <= self.last_seq:
            self.counts.duplicated += 1
            return
        if seq > self.last_seq + 1:
            self.counts.out_of_order += 1
        self.last_seq = seq
        self.log.saw(seq, event)
        sent = self.sent
        if sent is not None and event.get("seat") == self.seat:
            if event["kind"] == EVENT_OF_ACTION[sent["action"]["kind"]]:
                self.counts.acknowledged += 1
                self.sent = None
        if event["kind"] == "table_over":
            self.log.over = True
        elif event["kind"] == "deal_started":
            self.ready_said = False
        elif event["kind"] == "score" and event["sheet"].get("status") == "played":
            self.ready_said = True
            await ws.send(json.dumps({"type": "next_deal"}))

    async def on_error(self, ws: ClientConnection, message: Message) -> bool:
        """Handle an error; True when the table is gone for this seat."""
        if message["code"] == "table_lost":
            self.counts.tables_lost += 1
            self.log.lost = True
            return True
        if message["code"] in TRANSIENT:
            self.counts.retried += 1
            if self.sent is not None and message["code"] != "outcome_unknown":
                await asyncio.sleep(0.25 * self.rng.uniform(0.5, 1.5))
                await ws.send(json.dumps(self.sent))
            return False
        code = str(message["code"])
        self.counts.refused[code] = self.counts.refused.get(code, 0) + 1
        self.sent = None  # e.g. a resend of an action that had landed: the events tell
        return False

    async def act(self, ws: ClientConnection, legal: Message) -> None:
        if self.think:
            await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
        self.sent = {"type": "act", "action": choose(legal, self.rng)}
        await ws.send(json.dumps(self.sent))
