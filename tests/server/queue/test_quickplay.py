"""Quick play on a real node (PROTOCOL.md section 16), on the memory store and on Redis:
four players queue and land at one table; two get two AI after the wait; a ready check
one player ignores; play now; the refusals."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest
from websockets.asyncio.client import connect

from server.app import App
from server.queue.settings import QueueSettings
from server.settings import Settings

from ..conftest import STORES, running_app
from ..wire import OPEN_CLIENTS, Message, WireClient

# Small waits: a test never waits the defaults' 45-60 s.
FAST = QueueSettings(
    fill_three_seconds=2.0, fill_two_seconds=2.0, ready_seconds=2.0, tick_seconds=0.05
)


async def v2(url: str) -> WireClient:
    """A raw client speaking protocol version 2."""
    ws = await connect(url, subprotocols=["tarot.v2.json"], max_size=2**22, max_queue=None)  # type: ignore[list-item]
    client = WireClient(ws, binary=False)
    OPEN_CLIENTS.append(client)
    await client.send({"type": "hello", "protocol": 2})
    assert (await client.recv())["type"] == "welcome"
    return client


@pytest.fixture(params=STORES)
async def quick(request: pytest.FixtureRequest) -> AsyncIterator[App]:
    async with running_app(request.param, Settings(port=0, lease_ms=600, queue=FAST)) as running:
        yield running


def url_of(app: App) -> str:
    return f"ws://127.0.0.1:{app.port}/"


def kind(*types: str) -> Callable[[Message], bool]:
    return lambda m: m["type"] in types


async def refused(client: WireClient, message: Message) -> str:
    await client.send(message)
    error = await client.until(kind("error"))
    return str(error["code"])


async def confirm(client: WireClient) -> Message:
    found = await client.until(lambda m: m["type"] == "match_found")
    await client.send({"type": "ready", "match_id": found["match_id"], "id": "r"})
    return found


async def test_four_players_queue_and_land_at_one_table(quick: App) -> None:
    clients = [await v2(url_of(quick)) for _ in range(4)]
    for i, client in enumerate(clients):
        status = await client.request(
            {"type": "queue", "mode": "casual", "name": f"P{i}", "id": 1}, "queue_status"
        )
        assert status["state"] == "searching" and status["re"] == 1
    founds = [await confirm(c) for c in clients]
    assert {f["match_id"] for f in founds} == {founds[0]["match_id"]}
    assert founds[0]["humans"] == 4 and founds[0]["ai"] == 0
    joined = [await c.until(lambda m: m["type"] == "joined") for c in clients]
    assert len({j["table_id"] for j in joined}) == 1
    assert sorted(j["seat"] for j in joined) == [0, 1, 2, 3]
    table = quick.node.runtimes[joined[0]["table_id"]].data
    assert table.status == "playing" and table.options.private
    assert table.options.turn_seconds == 30  # quick play's turn clock by default
    assert all(s.occupant == "human" and s.dropped_at_ms is None for s in table.seats)


async def test_two_humans_get_two_ai_after_the_wait(quick: App) -> None:
    a, b = await v2(url_of(quick)), await v2(url_of(quick))
    for client, name in ((a, "Ann"), (b, "Bob")):
        await client.request({"type": "queue", "name": name}, "queue_status")
    found = await confirm(a)
    await confirm(b)
    assert found["humans"] == 2 and found["ai"] == 2
    joined = await a.until(lambda m: m["type"] == "joined")
    await b.until(lambda m: m["type"] == "joined")
    seats = quick.node.runtimes[joined["table_id"]].data.seats
    assert sorted(s.name for s in seats[:2]) == ["Ann", "Bob"]
    assert [s.name for s in seats[2:]] == ["AI 3 · expert", "AI 4 · expert"]


async def test_a_ready_check_one_player_ignores(quick: App) -> None:
    a, b, c = await v2(url_of(quick)), await v2(url_of(quick)), await v2(url_of(quick))
    for client in (a, b, c):
        await client.request({"type": "queue"}, "queue_status")
    await confirm(a)
    await confirm(b)
    await c.until(lambda m: m["type"] == "match_found")  # c does not answer
    gone = await c.until(lambda m: m["type"] == "queue_status" and m["state"] == "idle", 15)
    assert gone["reason"] == "not_ready"
    # a and b go back in (first), and are matched again: two and two AI.
    again = await a.until(lambda m: m["type"] == "match_found", 15)
    assert again["humans"] == 2
    await a.send({"type": "ready", "match_id": again["match_id"]})
    await confirm(b)
    await a.until(lambda m: m["type"] == "joined")
    await c.send({"type": "ready", "match_id": again["match_id"]})
    assert (await c.until(kind("error")))["code"] == "no_match"


async def test_play_now_alone_against_three_ai(quick: App) -> None:
    a = await v2(url_of(quick))
    await a.request({"type": "queue", "name": "Solo"}, "queue_status")
    await a.send({"type": "play_now", "id": 7})
    left = await a.until(lambda m: m["type"] == "queue_status" and m["state"] == "idle")
    assert left["reason"] == "play_now"
    joined = await a.until(kind("joined"))
    seats = quick.node.runtimes[joined["table_id"]].data.seats
    assert [s.occupant for s in seats] == ["human", "ai", "ai", "ai"]
    assert quick.node.quickplay.mine == {}


async def test_refusals(quick: App) -> None:
    a = await v2(url_of(quick))
    assert await refused(a, {"type": "queue", "mode": "rated"}) == "rated_needs_account"
    assert await refused(a, {"type": "cancel_queue"}) == "not_queued"
    assert await refused(a, {"type": "ready", "match_id": "x"}) == "no_match"
    await a.request({"type": "queue"}, "queue_status")
    assert await refused(a, {"type": "queue"}) == "already_queued"
    # The reply by its id: a pushed "searching" status may come first (seen under load).
    await a.send({"type": "cancel_queue", "id": 2})
    cancelled = await a.until(lambda m: m["type"] == "queue_status" and m.get("re") == 2)
    assert cancelled["state"] == "idle" and cancelled["reason"] == "cancelled"
    assert await quick.node.quickplay.tickets.searching() == 0


async def test_a_closed_connection_leaves_the_queue(quick: App) -> None:
    a = await v2(url_of(quick))
    await a.request({"type": "queue"}, "queue_status")
    assert await quick.node.quickplay.tickets.searching() == 1
    await a.close()
    for _ in range(100):
        if await quick.node.quickplay.tickets.searching() == 0:
            break
        await asyncio.sleep(0.05)
    assert await quick.node.quickplay.tickets.searching() == 0


async def test_version_1_has_no_quick_play(quick: App) -> None:
    a = await WireClient.open(url_of(quick))
    assert await refused(a, {"type": "queue"}) == "unknown_type"


async def test_an_abandon_delays_the_next_queue(quick: App) -> None:
    a = await v2(url_of(quick))
    await a.request({"type": "queue"}, "queue_status")
    (waiting,) = quick.node.quickplay.mine.values()
    await a.send({"type": "cancel_queue", "id": 4})
    await a.until(lambda m: m["type"] == "queue_status" and m.get("re") == 4)
    first = await quick.node.quickplay.record_abandon(waiting.ticket.player)
    await a.send({"type": "queue", "id": 5})
    status = await a.until(lambda m: m["type"] == "queue_status" and m.get("re") == 5)
    assert status["state"] == "penalty" and status["penalty_until_ms"] == first.until_ms
    error = await a.until(kind("error"))
    assert error["code"] == "queue_penalty" and "1 table left mid-game" in error["message"]
    second = await quick.node.quickplay.record_abandon(waiting.ticket.player)
    assert second.abandons == 2 and second.until_ms - first.until_ms >= 59_000  # 60 s, 120 s


async def test_the_lobby_says_how_many_search_to_every_version_2_connection(quick: App) -> None:
    """Not only the searching players: a v2 ``list_tables`` is answered by ``tables``,
    ``online``, then ``searching`` (PROTOCOL.md section 16); version 1 as it always was."""
    lobby = await v2(url_of(quick))
    await lobby.send({"type": "list_tables", "id": "l"})
    assert [(await lobby.recv())["type"], (await lobby.recv())["type"]] == ["tables", "online"]
    assert await lobby.recv() == {"type": "searching", "count": 0, "re": "l"}
    a, b = await v2(url_of(quick)), await v2(url_of(quick))
    await a.request({"type": "queue"}, "queue_status")
    await b.request({"type": "queue", "deals": 3}, "queue_status")
    await lobby.send({"type": "list_tables", "id": "again"})
    assert [(await lobby.recv())["type"], (await lobby.recv())["type"]] == ["tables", "online"]
    assert await lobby.recv() == {"type": "searching", "count": 2, "re": "again"}
    old = await WireClient.open(url_of(quick))
    await old.send({"type": "list_tables"})
    await old.send({"type": "ping", "id": "p"})
    assert [(await old.recv())["type"], (await old.recv())["type"]] == ["tables", "pong"]
