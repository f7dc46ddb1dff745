"""No message ever holds a card of another seat's hand before the rules make it public.

A property over the real server's messages: four random players and a spectator
play several deals; every card code in every message each of them receives
must be one that connection may know at that moment.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from engine import CODES

from ..deal_seeds import petit_sec_first
from .test_tables import create, seat_four
from .wire import Message, WireClient, is_event, play_until

ALL = set(CODES)


def card_codes(value: Any) -> set[str]:
    """Every card code anywhere in a message."""
    if isinstance(value, str):
        return {value} if value in ALL else set()
    if isinstance(value, dict):
        return set().union(*(card_codes(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_codes(v) for v in value)) if value else set()
    return set()


class Knowledge:
    """What one connection (``seat`` None: a spectator) may know, event by event."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.known: set[str] = set()
        self.contract: str | None = None
        self.taker: int | None = None
        self.scored = False
        self.own: set[str] = set()  # cards shown to us as our hand, checked against the record

    def check(self, message: Message) -> None:
        if message["type"] == "event":
            self._learn(message["event"])
        elif message["type"] == "snapshot" and message["view"] is not None:
            self._learn_view(message["view"])
        leaked = card_codes(message) - self.known
        assert not leaked, f"seat {self.seat} got {sorted(leaked)} in {message}"

    def _learn(self, event: dict[str, Any]) -> None:  # noqa: C901 - one branch per kind
        kind = event["kind"]
        if kind == "hidden":
            assert event == {"kind": "hidden"}
        elif kind == "deal_started":
            # A deal's hand is checked against that deal's record. A snapshot of a deal
            # already over (cancelled, about to be dealt again) showed a hand whose record
            # went out before the snapshot: it must not count toward the next deal.
            self.known, self.contract, self.taker, self.scored = set(), None, None, False
            self.own = set()
        elif kind == "hand":
            assert event["seat"] == self.seat, "a hand reached another seat"
            self.known |= set(event["cards"])
            self.own |= set(event["cards"])
        elif kind == "taker":
            self.contract, self.taker = event["contract"], event["seat"]
        elif kind == "chien":
            assert self.contract in ("prise", "garde"), "the chien shown under garde sans/contre"
            self.known |= set(event["cards"])
        elif kind == "discard":
            assert all(c.startswith("T") for c in event["trumps"])
            self.known |= set(event["trumps"])
        elif kind == "discard_kept":
            assert self.seat is not None and event["seat"] == self.seat == self.taker
            self.known |= set(event["cards"])
        elif kind in ("poignee",):
            self.known |= set(event["cards"])
        elif kind == "card":
            self.known.add(event["card"])
        elif kind == "score":
            self.scored = True
        elif kind == "record":
            assert self.scored, "the record came before the score"
            record = event["record"]
            if self.seat is not None:
                assert self.own <= set(record["hands"][self.seat]) | set(record["chien"])
            else:
                assert not self.own
            self.known, self.own = set(ALL), set()

    def _learn_view(self, view: dict[str, Any]) -> None:
        """A snapshot: our hand, and what is public (or ours as taker) at that moment."""
        assert view["seat"] == self.seat
        self.contract, self.taker = view["contract"], view["taker"]
        self.own |= set(view["hand"])
        self.known |= set(view["hand"]) | set(view["discard_trumps"])
        if view["chien"] is not None:
            assert self.contract in ("prise", "garde")
            self.known |= set(view["chien"])
        if view["discard"] is not None:
            assert self.seat is not None and self.seat == self.taker
            self.known |= set(view["discard"])
        for poignee in view["poignees"]:
            self.known |= set(poignee["cards"])
        for trick in [*view["tricks"], *([view["trick"]] if view["trick"] else [])]:
            self.known |= set(trick["cards"])


async def test_no_message_leaks_a_hidden_card_over_many_deals(url: str) -> None:
    for table_number in range(2):
        await play_and_check(url, table_number)


async def test_no_message_leaks_when_the_first_deal_is_a_petit_sec(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last seat to join starts the table, so its snapshot shows the petit sec over,
    hand and all, before the re-deal: that hand is not the re-deal's (a flaky failure of
    the test above, on either store, whenever the server's seed dealt one first)."""
    petit_sec_first(monkeypatch, "privacy")
    clients = await play_and_check(url, 0)
    views = [m["view"] for m in clients[3].received if m["type"] == "snapshot"]
    assert [(v["phase"], v["sheet"]["reason"]) for v in views] == [("done", "petit_sec")]


async def play_and_check(url: str, table_number: int) -> list[WireClient]:
    """Four random players and a spectator play a table of 3 deals; every message is checked."""
    host = await WireClient.open(url)
    table_id = await create(host, deals=3)
    spectator = await WireClient.open(url, "msgpack")
    await spectator.request({"type": "watch", "table_id": table_id}, "watching")
    clients = await seat_four(url, table_id, ("json", "msgpack", "json", "msgpack"))

    async def play(client: WireClient, seed: int) -> None:
        rng = random.Random(seed)
        while True:
            message = await play_until(
                client, lambda m: is_event("score")(m) or is_event("table_over")(m), rng
            )
            if message["event"]["kind"] == "table_over":
                return
            await client.send({"type": "next_deal"})

    await asyncio.gather(*(play(c, 10 * table_number + i) for i, c in enumerate(clients)))
    await spectator.until(is_event("table_over"), timeout=60)
    for connection, seat in [*((c, i) for i, c in enumerate(clients)), (spectator, None)]:
        knowledge = Knowledge(seat)
        checked = 0
        for message in connection.received:
            if message["type"] == "snapshot" and message["view"] is None:
                continue
            knowledge.check(message)
            checked += 1
        assert checked > 100
    return clients
