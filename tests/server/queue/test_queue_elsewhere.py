"""A queued player who goes to another table leaves the queue (PROTOCOL.md section 16:
the queue is the lobby's), and quick play never leaves a seat to a player who cannot
take it: the seat it gave is the AI's at once, the others never wait on its clock.
On the memory store and on Redis."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from server.app import App
from server.clock import now_ms
from server.queue.settings import QueueSettings
from server.settings import Settings

from ..conftest import STORES, running_app
from ..wire import Message, WireClient
from .test_quickplay import FAST, kind, url_of, v2

MANUAL = QueueSettings(tick_seconds=3600.0, ready_seconds=30.0)  # the test ticks


@pytest.fixture(params=STORES)
async def quick(request: pytest.FixtureRequest) -> AsyncIterator[App]:
    async with running_app(request.param, Settings(port=0, lease_ms=600, queue=FAST)) as running:
        yield running


@pytest.fixture(params=STORES)
async def manual(request: pytest.FixtureRequest) -> AsyncIterator[App]:
    """A node whose quick play moves only when the test calls ``tick``."""
    async with running_app(request.param, Settings(port=0, lease_ms=600, queue=MANUAL)) as running:
        yield running


async def queued(app: App, n: int) -> list[WireClient]:
    clients = [await v2(url_of(app)) for _ in range(n)]
    for i, client in enumerate(clients):
        await client.request({"type": "queue", "name": f"P{i}", "deals": 2}, "queue_status")
    return clients


async def side_table(client: WireClient) -> str:
    made = await client.request({"type": "create_table", "options": {}}, "table_created")
    return str(made["table"]["table_id"])


async def until_joined(client: WireClient) -> Message:
    """Confirm every ready check offered until a seat is given."""
    while True:
        message = await client.until(kind("match_found", "joined"), 20)
        if message["type"] == "joined":
            return message
        await client.send({"type": "ready", "match_id": message["match_id"]})


async def test_a_queued_player_who_joins_another_table_is_never_a_ghost_seat(quick: App) -> None:
    a, b, c, d = await queued(quick, 4)
    founds = [await client.until(kind("match_found")) for client in (a, b, c, d)]
    match_id = founds[0]["match_id"]
    await a.request({"type": "ready", "match_id": match_id}, "queue_status")
    table_id = await side_table(a)
    await a.send({"type": "join", "table_id": table_id, "seat": 0, "id": "j"})
    assert (await a.until(lambda m: m.get("re") == "j"))["type"] == "joined"
    left = await a.until(kind("queue_status"))
    assert left["state"] == "idle" and left["reason"] == "other_table"
    for client in (b, c, d):
        await client.send({"type": "ready", "match_id": match_id})
    joined = await asyncio.gather(*(until_joined(client) for client in (b, c, d)))
    assert len({j["table_id"] for j in joined}) == 1
    seats = quick.node.runtimes[joined[0]["table_id"]].data.seats
    humans = [s for s in seats if s.occupant == "human"]
    assert len(humans) == 3 and all(s.dropped_at_ms is None for s in humans)
    assert sorted(s.name for s in humans) == ["P1", "P2", "P3"]


async def test_watching_leaves_the_queue_and_a_refused_join_does_not(quick: App) -> None:
    a, watcher = await v2(url_of(quick)), await v2(url_of(quick))
    table_id = await side_table(watcher)
    await a.request({"type": "queue"}, "queue_status")
    await a.send({"type": "watch", "table_id": table_id, "id": "w"})
    assert (await a.until(lambda m: m.get("re") == "w"))["type"] == "watching"
    left = await a.until(kind("queue_status"))
    assert left["state"] == "idle" and left["reason"] == "other_table"
    assert await quick.node.quickplay.tickets.searching() == 0
    assert quick.node.quickplay.mine == {}
    await a.send({"type": "queue", "id": "q"})  # and not the other way: leave first
    assert (await a.until(lambda m: m.get("re") == "q"))["code"] == "already_seated"
    # A refused join changes nothing: the player is still searching.
    b = await v2(url_of(quick))
    await b.request({"type": "queue"}, "queue_status")
    await b.send({"type": "join", "table_id": "nosuch", "id": "x"})
    assert (await b.until(lambda m: m.get("re") == "x"))["code"] == "unknown_table"
    assert await quick.node.quickplay.tickets.searching() == 1


async def _seated_by_the_matcher(app: App) -> tuple[list[WireClient], str]:
    """Four confirmed: the matcher has made their table, their nodes have not read it."""
    quickplay = app.node.quickplay
    clients = await queued(app, 4)
    await quickplay.tick()  # proposes
    await quickplay.tick()  # tells
    founds = [await client.until(kind("match_found")) for client in clients]
    for client, found in zip(clients, founds, strict=True):
        await client.request({"type": "ready", "match_id": found["match_id"]}, "queue_status")
    await quickplay.match_once(now_ms())  # seats them; nobody told yet
    (table_id,) = [
        r.table_id for r in app.node.runtimes.values() if r.data.options.name.startswith("Quick")
    ]
    return clients, table_id


async def _others_seated(app: App, clients: list[WireClient], table_id: str) -> None:
    await app.node.quickplay.tick()  # the others' news: their seats
    for client in clients:
        assert (await client.until(kind("joined")))["table_id"] == table_id
    seats = app.node.runtimes[table_id].data.seats
    humans = [s for s in seats if s.occupant == "human"]
    assert sorted(s.name for s in humans) == ["P1", "P2", "P3"]
    assert all(s.dropped_at_ms is None for s in humans)
    (ai,) = [i for i, s in enumerate(seats) if s.occupant == "ai"]
    assert seats[ai].name == f"AI {ai + 1} · expert" and seats[ai].account_id is None


async def test_a_seat_given_as_the_player_went_elsewhere_is_the_ai_s(manual: App) -> None:
    """The matcher seated the group; before its node read the seat, the first player
    joined another table: that seat is the AI's at once (the others do not wait)."""
    clients, table_id = await _seated_by_the_matcher(manual)
    first = clients[0]
    side = await side_table(first)
    await first.request({"type": "join", "table_id": side, "seat": 0}, "joined")
    left = await first.until(kind("queue_status"))
    assert left["state"] == "idle" and left["reason"] == "other_table"
    await _others_seated(manual, clients[1:], table_id)


async def test_a_seat_given_as_the_player_cancelled_is_the_ai_s(manual: App) -> None:
    clients, table_id = await _seated_by_the_matcher(manual)
    await clients[0].send({"type": "cancel_queue", "id": "c"})
    cancelled = await clients[0].until(lambda m: m.get("re") == "c")
    assert cancelled["state"] == "idle" and cancelled["reason"] == "cancelled"
    await _others_seated(manual, clients[1:], table_id)


async def test_a_seat_given_after_the_player_left_the_queue_is_the_ai_s(manual: App) -> None:
    """The matcher read the queue, the first player cancelled, then the matcher seated
    the group it had read: the cancelled player's seat is the AI's at once."""
    quickplay = manual.node.quickplay
    clients = await queued(manual, 4)
    await quickplay.tick()
    await quickplay.tick()
    for client in clients:
        found = await client.until(kind("match_found"))
        await client.request({"type": "ready", "match_id": found["match_id"]}, "queue_status")
    view = await quickplay.tickets.read()  # what the matcher read
    await clients[0].request({"type": "cancel_queue"}, "queue_status")
    await quickplay.matchmaker._settle_ready_checks(view, now_ms())  # seats the group it read
    (table_id,) = [
        r.table_id for r in manual.node.runtimes.values() if r.data.options.name.startswith("Quick")
    ]
    await _others_seated(manual, clients[1:], table_id)


async def test_a_seat_read_as_the_player_went_to_watch_is_the_ai_s(manual: App) -> None:
    """The node read the first player's seat and left the queue for it; before it took
    the seat, the player started watching another table (its withdraw found nothing to
    give up): the seat is the AI's, the watcher stays a watcher."""
    quickplay = manual.node.quickplay
    clients, table_id = await _seated_by_the_matcher(manual)
    first = clients[0]
    ((ticket_id, waiting),) = [(t, w) for t, w in quickplay.mine.items() if w.ticket.name == "P0"]
    seating = await quickplay._leave(ticket_id)  # what the tick's news reading does first
    assert seating is not None and seating.table_id == table_id
    side = await side_table(first)
    await first.request({"type": "watch", "table_id": side}, "watching")
    await quickplay._take(waiting.queuer, seating)
    await first.request({"type": "ping", "id": "p"}, "pong")
    assert not [m for m in first.received if m["type"] == "joined"]
    connection = waiting.queuer.connection  # type: ignore[attr-defined]
    assert connection.state.table.table_id == side and connection.state.seat is None
    await _others_seated(manual, clients[1:], table_id)
