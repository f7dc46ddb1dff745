"""The bare relay of ``tarot bench server``: the same clients against a server doing no rules.

A "tarot relay" on the same websockets stack and settings as ``tarot serve``,
speaking just enough of ``tarot.v1.msgpack`` for ``bench_clients``' bots:
tables of four seats, each seat dealt 18 cards, seats in turn. It checks
what a relay must (the message is a ``play``, it is the seat's turn, the card
is in its hand), sends each play to the four seats as an ``event`` shaped like
the server's and the next seat a private ``your_turn`` listing its hand, and
after 72 cards a ``score`` event, answered by ``next_deal``. No bidding, no
tricks, no store, no validation beyond those checks: 5 frames per action.
Frames go out through the node's own ``Outbox`` (one write per connection
and loop turn), so the transport's cost is the node's.

The bots run unchanged against it, so the ratio of the server's CPU per
action to the relay's is what the game costs over the transport (issue 18's
yardstick). It counts its actions on ``/metrics`` like a node.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from http import HTTPStatus
from typing import Any

import msgpack
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response

from engine import CODES
from server.net.outbox import Outbox
from server.settings import Settings

# The relay's frames are version 1's (an ``event`` each, a separate ``your_turn``): the
# baseline of frames per action. It takes either subprotocol; the bench clients read both.
SUBPROTOCOLS = ["tarot.v1.msgpack", "tarot.v2.msgpack"]
HAND = 18


def pack(message: dict[str, Any]) -> bytes:
    return bytes(msgpack.packb(message, use_bin_type=True))


class RelayTable:
    """One table: its four seats, their hands, whose turn it is."""

    def __init__(self, table_id: str, rng: random.Random) -> None:
        self.table_id = table_id
        self.rng = rng
        self.seats: dict[int, Outbox] = {}
        self.hands: list[set[str]] = [set() for _ in range(4)]
        self.seq = 0
        self.turn = 0
        self.played = 0

    def deal(self) -> None:
        deck = list(CODES)
        self.rng.shuffle(deck)
        self.hands = [set(deck[HAND * s : HAND * (s + 1)]) for s in range(4)]
        self.played = 0
        self.send_turn()

    def send_turn(self) -> None:
        legal = {
            "seat": self.turn,
            "phase": "play",
            "bids": [],
            "discard": None,
            "chelem": False,
            "poignees": [],
            "cards": sorted(self.hands[self.turn]),
        }
        message = {"type": "your_turn", "table_id": self.table_id, "seq": self.seq}
        self.seats[self.turn].put(pack({**message, "legal": legal, "deadline_ms": None}))

    def publish(self, event: dict[str, Any]) -> None:
        self.seq += 1
        frame = pack({"type": "event", "table_id": self.table_id, "seq": self.seq, "event": event})
        for outbox in self.seats.values():
            outbox.put(frame)

    def play(self, seat: int, card: Any) -> str | None:
        """A seat's play: None if relayed, else the refusal's code."""
        if seat != self.turn or self.played == 4 * HAND:
            return "not_your_turn"
        if card not in self.hands[seat]:
            return "not_in_hand"
        self.hands[seat].discard(card)
        self.played += 1
        self.publish({"kind": "card", "seat": seat, "card": card})
        self.turn = (seat + 1) % 4
        if self.played == 4 * HAND:
            self.publish({"kind": "score"})
        else:
            self.send_turn()
        return None


class Relay:
    """The relay's tables and its count of actions."""

    def __init__(self) -> None:
        self.tables: dict[str, RelayTable] = {}
        self.ids = itertools.count()
        self.actions = 0

    async def handler(self, ws: ServerConnection) -> None:
        at: tuple[RelayTable, int] | None = None
        outbox = Outbox(ws, Settings().send_buffer_bytes, ws.transport.abort)
        async for frame in ws:
            message = msgpack.unpackb(frame, raw=False)
            kind = message.get("type")
            if kind == "act" and at is not None:
                action = message.get("action", {})
                refused = "not_a_play" if action.get("kind") != "play" else None
                refused = refused or at[0].play(at[1], action.get("card"))
                if refused:
                    outbox.put(pack({"type": "error", "code": refused}))
                else:
                    self.actions += 1
            elif kind == "next_deal" and at is not None and at[0].played == 4 * HAND:
                at[0].deal()
            elif kind == "join":
                at = self.join(outbox, message)
            elif kind == "create_table":
                table = self.create()
                outbox.put(pack({"type": "table_created", "table": {"table_id": table}}))
            elif kind == "hello":
                version = message.get("protocol", 1)
                outbox.put(pack({"type": "welcome", "protocol": version, "server": "relay"}))

    def create(self) -> str:
        table_id = f"r{next(self.ids)}"
        self.tables[table_id] = RelayTable(table_id, random.Random(table_id))
        return table_id

    def join(self, outbox: Outbox, message: dict[str, Any]) -> tuple[RelayTable, int]:
        table, seat = self.tables[message["table_id"]], int(message["seat"])
        table.seats[seat] = outbox
        outbox.put(pack({"type": "joined", "table_id": table.table_id, "seat": seat}))
        if len(table.seats) == 4:
            table.deal()
        return table, seat

    def metrics(self, ws: ServerConnection, request: Request) -> Response | None:
        if request.path != "/metrics":
            return None
        return ws.respond(HTTPStatus.OK, f"tarot_actions_applied_total {self.actions}\n")


async def relay_server(port: int) -> None:
    """Serve the relay on 127.0.0.1:PORT with ``tarot serve``'s websockets settings."""
    relay = Relay()
    async with serve(
        relay.handler,
        "127.0.0.1",
        port,
        subprotocols=SUBPROTOCOLS,  # type: ignore[arg-type]
        process_request=relay.metrics,
        compression=None,
        max_queue=16,
        max_size=2**20,
        ping_interval=20,
        ping_timeout=20,
    ):
        await asyncio.Future()
