"""Tables over real WebSockets: full deals, series, mixed codecs, spectators, lobby."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest

from ..deal_seeds import deal_from, ordinary, where
from .wire import Message, WireClient, is_event, play_until, random_choice


async def create(client: WireClient, **options: Any) -> str:
    created = await client.request({"type": "create_table", "options": options}, "table_created")
    return str(created["table"]["table_id"])


async def seat_four(url: str, table_id: str, codecs: tuple[str, ...]) -> list[WireClient]:
    clients = []
    for seat, codec in enumerate(codecs):
        client = await WireClient.open(url, codec)
        await client.request({"type": "join", "table_id": table_id, "seat": seat}, "joined")
        clients.append(client)
    return clients


async def play_all(clients: list[WireClient], done: str, seed: int = 0) -> list[Message]:
    return list(
        await asyncio.gather(
            *(play_until(c, is_event(done), random.Random(seed + i)) for i, c in enumerate(clients))
        )
    )


async def test_four_humans_play_a_full_deal_with_msgpack_and_json_at_one_table(url: str) -> None:
    host = await WireClient.open(url)
    table_id = await create(host, deals=1)
    clients = await seat_four(url, table_id, ("msgpack", "json", "msgpack", "json"))
    # The fourth human starts the table by itself.
    overs = await play_all(clients, "table_over")
    totals = [o["event"]["totals"] for o in overs]
    assert all(t == totals[0] for t in totals)
    assert sum(totals[0]) == 0
    # Everyone saw the same numbered stream.
    assert len({c.last_seq for c in clients}) == 1


async def test_a_multi_deal_table_rotates_the_dealer_and_adds_up_scores(url: str) -> None:
    client = await WireClient.open(url)
    table_id = await create(client, deals=3)
    await client.request({"type": "join", "table_id": table_id, "seat": 2}, "joined")
    await client.send({"type": "start"})
    rng = random.Random(5)
    dealers: list[int] = []
    sheets: list[list[float]] = []
    totals: list[float] = []
    async with asyncio.timeout(120):
        while True:
            message = await play_until(
                client,
                lambda m: (
                    m["type"] == "event"
                    and m["event"]["kind"] in ("deal_started", "score", "table_over")
                ),
                rng,
            )
            event = message["event"]
            if event["kind"] == "deal_started":
                dealers.append(event["dealer"])
            elif event["kind"] == "score":
                sheets.append(event["sheet"]["scores"])
                totals = event["totals"]
                if event["sheet"]["status"] == "played" and len([s for s in sheets if any(s)]) < 3:
                    await client.send({"type": "next_deal"})
            else:
                break
    # R1: the deal passes to the right each time, cancelled deals included.
    assert dealers == [(dealers[0] + i) % 4 for i in range(len(dealers))]
    assert len(dealers) >= 3
    assert totals == [sum(s[i] for s in sheets) for i in range(4)]
    assert sum(totals) == 0


async def bid_then_play(client: WireClient, bid: str, done: Callable[[Message], bool]) -> Message:
    """Answer each turn: ``bid`` when it may be bid (else pass), anything else at random."""
    rng = random.Random(client.seat)
    async with asyncio.timeout(60):
        while True:
            message = await client.recv()
            if message["type"] == "your_turn":
                legal = message["legal"]
                if legal["bids"]:
                    action = {"kind": "bid", "contract": bid if bid in legal["bids"] else "pass"}
                else:
                    action = random_choice(legal, rng)
                await client.send({"type": "act", "action": action})
            if done(message):
                return message


async def test_a_deal_dealt_again_after_all_pass_keeps_its_number(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_from(monkeypatch, where("ordinary", ordinary))  # no petit sec cancels a deal first
    host = await WireClient.open(url)
    table_id = await create(host, deals=2)
    clients = await seat_four(url, table_id, ("json",) * 4)
    scored = is_event("score")
    cancelled = await asyncio.gather(*(bid_then_play(c, "pass", scored) for c in clients))
    assert {s["event"]["sheet"]["status"] for s in cancelled} == {"cancelled"}
    # The first bidder takes: the deal dealt again is played, and it is still deal 1.
    played = await asyncio.gather(*(bid_then_play(c, "prise", scored) for c in clients))
    assert {s["event"]["sheet"]["status"] for s in played} == {"played"}
    events = [m["event"] for m in clients[0].received if m["type"] == "event"]
    starts = [e for e in events if e["kind"] == "deal_started"]
    assert [e["deal_number"] for e in starts] == [1, 1]
    assert starts[1]["dealer"] == (starts[0]["dealer"] + 1) % 4  # R1: the deal still moves on
    assert [e["deal_number"] for e in events if e["kind"] == "score"] == [1, 1]
    wait = await clients[0].until(is_event("between_deals"))
    assert wait["event"]["next_deal_number"] == 2
    for client in clients:
        await client.send({"type": "next_deal"})
    started = await clients[0].until(is_event("deal_started"))
    assert started["event"]["deal_number"] == 2
    listed = await host.request({"type": "list_tables"}, "tables")
    (summary,) = [t for t in listed["tables"] if t["table_id"] == table_id]
    assert summary["deal_number"] == 2


async def test_a_spectator_sees_every_public_event_and_no_private_one(url: str) -> None:
    host = await WireClient.open(url)
    table_id = await create(host, deals=1)
    watcher = await WireClient.open(url)
    await watcher.request({"type": "watch", "table_id": table_id}, "watching")
    player = await WireClient.open(url)
    await player.request({"type": "join", "table_id": table_id, "seat": 1}, "joined")
    await player.send({"type": "start"})
    await play_until(player, is_event("table_over"), random.Random(3))
    await watcher.until(is_event("table_over"))
    seen = {m["seq"]: m["event"] for m in watcher.received if m["type"] == "event"}
    mine = {m["seq"]: m["event"] for m in player.received if m["type"] == "event"}
    assert sorted(seen) == list(range(1, max(seen) + 1))
    assert set(mine) <= set(seen)
    for seq, event in seen.items():
        if seq not in mine:
            continue  # before the player joined (its snapshot covered it)
        if event["kind"] == "hidden":
            assert event == {"kind": "hidden"}
            assert mine[seq]["kind"] in ("hand", "discard_kept") or mine[seq] == event
        else:
            assert mine[seq] == event  # the public stream is the same for everyone
    assert not any(e["kind"] in ("hand", "discard_kept") for e in seen.values())


async def test_the_lobby_lists_public_tables_not_private_ones(url: str) -> None:
    client = await WireClient.open(url)
    public = await create(client, name="open")
    private = await client.request(
        {"type": "create_table", "options": {"private": True}}, "table_created"
    )
    listed = await client.request({"type": "list_tables"}, "tables")
    ids = [t["table_id"] for t in listed["tables"]]
    assert public in ids
    assert private["table"]["table_id"] not in ids
    assert private["invite"]
    # The invite lets a friend in; without it the table refuses.
    friend = await WireClient.open(url)
    await friend.send({"type": "join", "table_id": private["table"]["table_id"]})
    refused = await friend.until(lambda m: m["type"] == "error")
    assert refused["code"] == "bad_invite"
    joined = await friend.request(
        {"type": "join", "table_id": private["table"]["table_id"], "invite": private["invite"]},
        "joined",
    )
    assert joined["seat"] == 0


async def test_the_deal_record_is_published_after_the_deal_and_scores_like_the_sheet(
    url: str,
) -> None:
    from engine import load_record, score

    client = await WireClient.open(url)
    table_id = await create(client, deals=1)
    await client.request({"type": "join", "table_id": table_id}, "joined")
    await client.send({"type": "start"})
    await play_until(client, is_event("table_over"), random.Random(8))
    events = [m["event"] for m in client.received if m["type"] == "event"]
    records = [e for e in events if e["kind"] == "record"]
    sheets = [e for e in events if e["kind"] == "score"]
    assert records and len(records) == len(sheets)
    for record, sheet in zip(records, sheets, strict=True):
        assert sheet["sheet"] == score(load_record(record["record"])).to_json()
        kinds = [e["kind"] for e in events]
        # The record (every hand) comes only once the deal is scored.
        assert kinds.index("record") > kinds.index("score")
