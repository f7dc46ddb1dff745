"""Declining a poignee is playing a card (PROTOCOL.md section 8, issue 29.4): the seat
offered one plays its card instead, no ``poignee`` event follows, and the offer is gone
for the rest of the deal."""

from __future__ import annotations

import asyncio
import random

import pytest

import engine

from ..deal_seeds import deal_from, ordinary, where
from .test_tables import create, seat_four
from .wire import Message, WireClient, is_event, random_choice


def ten_trumps(seed: str) -> bool:
    """An ordinary deal where a seat holds ten trumps or more, whoever deals."""
    deals = [engine.new_deal(dealer, bytes.fromhex(seed)) for dealer in range(4)]
    return ordinary(seed) and all(
        any((d.hands[s] & engine.TRUMPS).bit_count() >= 10 for s in range(4)) for d in deals
    )


async def play_declining(client: WireClient, rng: random.Random) -> list[Message]:
    """One deal: prise if still open, else pass; a card whenever a poignee is offered.
    Returns the your_turns that offered one."""
    offered: list[Message] = []
    while True:
        message = await client.recv(30)
        if is_event("score")(message):
            return offered
        if message["type"] != "your_turn":
            continue
        legal = message["legal"]
        if legal["bids"]:
            action = {"kind": "bid", "contract": "prise" if "prise" in legal["bids"] else "pass"}
        elif legal["poignees"]:
            offered.append(message)
            action = {"kind": "play", "card": legal["cards"][0]}
        else:
            action = random_choice(legal, rng)
        await client.send({"type": "act", "action": action})


async def test_a_seat_offered_a_poignee_declines_it_by_playing_a_card(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_from(monkeypatch, where("poignee-decline", ten_trumps))
    host = await WireClient.open(url)
    table_id = await create(host, deals=1)
    clients = await seat_four(url, table_id, ("json",) * 4)
    offers = await asyncio.gather(
        *(play_declining(c, random.Random(i)) for i, c in enumerate(clients))
    )
    (seat,) = [s for s, offered in enumerate(offers) if offered]  # offered once: then gone
    (offer,) = offers[seat]
    events = {m["seq"]: m["event"] for m in clients[seat].received if m["type"] == "event"}
    assert events[offer["seq"] + 1] == {
        "kind": "card",
        "seat": seat,
        "card": offer["legal"]["cards"][0],
    }
    assert not any(e["kind"] == "poignee" for e in events.values())
    later = [
        m for m in clients[seat].received if m["type"] == "your_turn" and m["seq"] > offer["seq"]
    ]
    assert later and all(m["legal"]["poignees"] == [] for m in later)
