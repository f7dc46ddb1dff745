"""Issue 14.6: mid-deal, nobody can take a seat they did not hold when the deal began.

Before, any connection could join a started public table on an AI seat,
read that seat's hand from the snapshot and leave again (the AI took the seat
back): a friend of one player could so read two AI opponents' cards.
"""

from __future__ import annotations

import random

import pytest

from ..deal_seeds import petit_sec_first
from ..server.wire import WireClient, is_event, play_until
from .conftest import Start, ws_url


async def started_against_ai(url: str) -> tuple[WireClient, str]:
    """A human at seat 0 against three AI, a deal under way."""
    human = await WireClient.open(url)
    created = await human.request(
        {"type": "create_table", "options": {"deals": 2}}, "table_created"
    )
    table_id = created["table"]["table_id"]
    await human.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    await human.send({"type": "start"})
    # A turn, not the deal's start: a petit sec is over as it is dealt, and its seats are
    # free until it is dealt again.
    await human.until(is_event("turn"))
    return human, table_id


def hands_seen(client: WireClient) -> list[list[str]]:
    return [
        m["view"]["hand"]
        for m in client.received
        if m["type"] == "snapshot" and m.get("view") and m["view"].get("hand")
    ]


async def test_a_newcomer_cannot_take_an_ai_seat_mid_deal_nor_read_its_hand(
    node: Start, monkeypatch: pytest.MonkeyPatch
) -> None:
    petit_sec_first(monkeypatch, "seats")  # mid-deal is then the deal dealt after it
    app = await node(next_deal_seconds=30)
    human, table_id = await started_against_ai(ws_url(app))
    spy = await WireClient.open(ws_url(app))
    for seat in (1, 2, 3, None):
        await spy.send({"type": "join", "table_id": table_id, "seat": seat})
        refused = await spy.until(lambda m: m["type"] in ("error", "joined"))
        assert refused["type"] == "error", f"seat {seat} was given away mid-deal"
        assert refused["code"] == "deal_in_progress"
    assert hands_seen(spy) == []
    assert all(s.occupant == "ai" for s in app.node.runtimes[table_id].data.seats[1:])
    # Watching is allowed, and shows no hand.
    await spy.request({"type": "watch", "table_id": table_id}, "watching")
    snapshot = await spy.until(lambda m: m["type"] == "snapshot")
    assert snapshot["view"]["hand"] == []
    # Between deals the AI's seats are free again (not after a deal passed out or a petit
    # sec: it is dealt again at once, and its score comes first).
    await play_until(human, is_event("between_deals"), random.Random(5), timeout=60)
    await spy.request({"type": "leave"}, "left")
    joined = await spy.request({"type": "join", "table_id": table_id, "seat": 2}, "joined")
    assert joined["seat"] == 2


async def test_who_left_mid_deal_cannot_come_back_as_a_newcomer(node: Start) -> None:
    """Leaving gives the seat to the AI for the rest of the deal; a new join is refused
    like anyone's (the leaver's token went with the seat)."""
    app = await node()
    url = ws_url(app)
    alice, table_id = await started_against_ai(url)  # seat 0, the deal under way
    await alice.request({"type": "leave"}, "left")  # the table is over: nobody is left
    assert app.node.runtimes[table_id].data.status == "finished"
    bob = await WireClient.open(url)
    created = await bob.request({"type": "create_table", "options": {"deals": 2}}, "table_created")
    table_id = created["table"]["table_id"]
    await bob.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    carol = await WireClient.open(url)
    await carol.request({"type": "join", "table_id": table_id, "seat": 1}, "joined")
    await bob.request({"type": "start"}, "snapshot")
    await carol.request({"type": "leave"}, "left")  # mid-deal: the AI plays seat 1
    assert app.node.runtimes[table_id].data.seats[1].occupant == "ai"
    again = await WireClient.open(url)
    await again.send({"type": "join", "table_id": table_id, "seat": 1})
    assert (await again.until(lambda m: m["type"] == "error"))["code"] == "deal_in_progress"
    assert hands_seen(again) == []


async def test_a_dropped_player_takes_the_seat_back_with_the_token_mid_deal(node: Start) -> None:
    app = await node()
    human, _ = await started_against_ai(ws_url(app))
    token = human.token
    await human.close()
    back = await WireClient.open(ws_url(app))
    joined = await back.request({"type": "resume", "token": token}, "joined")
    assert joined["seat"] == 0
    snapshot = await back.until(lambda m: m["type"] == "snapshot")
    assert len(snapshot["view"]["hand"]) > 0
