"""Seats survive lost connections: resume with the token, time-outs, the AI standing in."""

from __future__ import annotations

import asyncio
import random

import pytest

from ..deal_seeds import petit_sec_first
from .test_tables import create, seat_four
from .wire import Message, WireClient, is_event, play_until, random_choice


def events_of(client: WireClient) -> dict[int, dict[str, object]]:
    return {m["seq"]: m["event"] for m in client.received if m["type"] == "event"}


async def act_once(client: WireClient, rng: random.Random) -> Message:
    turn = await client.until(lambda m: m["type"] == "your_turn")
    action = random_choice(turn["legal"], rng)
    await client.send({"type": "act", "action": action})
    return turn


@pytest.mark.parametrize("petit_sec", [False, True], ids=["any", "petit_sec_first"])
async def test_reconnect_mid_bidding_replays_exactly_what_was_missed(
    url: str, petit_sec: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if petit_sec:
        petit_sec_first(monkeypatch, "reconnect-bidding")
    host = await WireClient.open(url)
    table_id = await create(host, deals=1)
    clients = await seat_four(url, table_id, ("json",) * 4)
    rng = random.Random(2)
    first = clients[0]
    # The first turn, not the first deal_started: after a petit sec the deal is dealt
    # again, by the next dealer (a flaky failure whenever the server's seed dealt one).
    bidder = (await first.until(is_event("turn")))["event"]["seat"]
    # The first bidder bids, then the next seat's player loses its connection.
    await act_once(clients[bidder], rng)
    gone = clients[(bidder + 1) % 4]
    await gone.until(is_event("bid"))
    last_seq, token, before = gone.last_seq, gone.token, events_of(gone)
    joined_at = next(m["seq"] for m in gone.received if m["type"] == "snapshot")
    await gone.close()
    # Meanwhile the table moves on without it: nobody else can act, so nothing is lost.
    back = await WireClient.open(url)
    back.last_seq = last_seq
    await back.send({"type": "resume", "token": token, "last_seq": last_seq})
    joined = await back.until(lambda m: m["type"] == "joined")
    assert joined["seat"] == (bidder + 1) % 4
    turn = await back.until(lambda m: m["type"] == "your_turn")
    assert turn["legal"]["bids"]
    assert not any(m["type"] == "snapshot" for m in back.received)  # replayed, not re-sent
    # Everything it saw before plus what it got now is the table's whole stream, in order.
    replayed = events_of(back)
    stream = before | replayed
    assert sorted(stream) == list(range(joined_at + 1, back.last_seq + 1))
    assert set(before).isdisjoint(replayed)  # nothing twice


async def test_reconnect_mid_trick_without_last_seq_gets_a_snapshot_of_its_seat(url: str) -> None:
    host = await WireClient.open(url)
    table_id = await create(host, deals=1)
    clients = await seat_four(url, table_id, ("json",) * 4)
    rng = random.Random(4)
    tasks = [
        asyncio.create_task(play_until(c, is_event("card"), random.Random(i)))
        for i, c in enumerate(clients)
    ]
    await asyncio.gather(*tasks)
    # One card is on the table: find who is to act, drop them, resume without last_seq.
    turn = await clients[0].until(is_event("turn"))
    seat = turn["event"]["seat"]
    gone = clients[seat]
    hand_before = [  # the deal under way's: the last hand dealt (a petit sec is dealt again)
        m["event"]["cards"]
        for m in gone.received
        if m["type"] == "event" and m["event"]["kind"] == "hand"
    ][-1]
    token = gone.token
    await gone.close()
    back = await WireClient.open(url)
    await back.send({"type": "resume", "token": token})
    snapshot = await back.until(lambda m: m["type"] == "snapshot")
    view = snapshot["view"]
    assert view["seat"] == seat
    assert view["trick"]["cards"]  # mid-trick: the card(s) on the table are shown
    assert set(view["hand"]) <= set(hand_before) | set(view["chien"] or [])
    turn = await back.until(lambda m: m["type"] == "your_turn")
    assert set(turn["legal"]["cards"]) <= set(view["hand"])
    await back.send({"type": "act", "action": random_choice(turn["legal"], rng)})
    await back.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "card")


async def test_a_second_connection_with_the_same_token_replaces_the_first(url: str) -> None:
    client = await WireClient.open(url)
    table_id = await create(client)
    await client.request({"type": "join", "table_id": table_id}, "joined")
    other = await WireClient.open(url)
    await other.request({"type": "resume", "token": client.token}, "joined")
    bye = await client.until(lambda m: m["type"] == "bye")
    assert bye["reason"] == "replaced"


async def test_a_turn_timeout_makes_the_ai_play_for_the_seat(url: str) -> None:
    client = await WireClient.open(url)
    table_id = await create(client, turn_seconds=0.3)
    await client.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    await client.send({"type": "start"})
    turn = await client.until(lambda m: m["type"] == "your_turn")
    assert turn["deadline_ms"] is not None
    # We do not answer: the AI bids for seat 0 once the deadline passes.
    bid = await client.until(lambda m: is_event("bid")(m) and m["event"]["seat"] == 0, timeout=10)
    assert bid["event"]["contract"] in ("pass", "prise", "garde", "garde_sans", "garde_contre")


async def test_a_dropped_players_seat_goes_to_the_ai_and_comes_back(url: str) -> None:
    host = await WireClient.open(url)
    table_id = await create(host, grace_seconds=0.2, deals=1)
    dropping = await WireClient.open(url)
    await dropping.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    # A second human at seat 1 who acts only when told: the table waits for them.
    steady = await WireClient.open(url)
    await steady.request({"type": "join", "table_id": table_id, "seat": 1}, "joined")
    watcher = await WireClient.open(url)
    await watcher.request({"type": "watch", "table_id": table_id}, "watching")
    token = dropping.token
    await dropping.close()
    await steady.send({"type": "start"})
    rng = random.Random(6)
    # Past the grace period the AI acts for seat 0, which shows as away.
    away = await watcher.until(lambda m: is_event("seat")(m) and m["event"]["seat"]["seat"] == 0)
    assert away["event"]["seat"]["connected"] is False
    seat0_acted = asyncio.create_task(
        watcher.until(lambda m: is_event("bid")(m) and m["event"]["seat"] == 0, timeout=30)
    )
    while not seat0_acted.done():
        turn = await steady.until(lambda m: m["type"] == "your_turn" or is_event("turn")(m))
        if turn["type"] == "your_turn":
            await steady.send({"type": "act", "action": random_choice(turn["legal"], rng)})
        await asyncio.sleep(0)
    await seat0_acted
    # The player comes back: the seat is theirs again and the AI stops playing it.
    back = await WireClient.open(url)
    await back.request({"type": "resume", "token": token}, "joined")
    present = await watcher.until(lambda m: is_event("seat")(m) and m["event"]["seat"]["seat"] == 0)
    assert present["event"]["seat"]["connected"] is True
    mark = len(watcher.received)
    steady_task = asyncio.create_task(play_until(steady, is_event("table_over"), rng))
    turn = await back.until(lambda m: m["type"] == "your_turn", timeout=30)
    acts = [
        m
        for m in watcher.received[mark:]
        if m["type"] == "event"
        and m["event"].get("seat") == 0
        and m["event"]["kind"] != "seat"
        and m["event"]["kind"] != "turn"
    ]
    assert acts == []  # nothing was played for seat 0 before its player was asked
    await back.send({"type": "act", "action": random_choice(turn["legal"], rng)})
    await play_until(back, is_event("table_over"), rng)
    await steady_task
