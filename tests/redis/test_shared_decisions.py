"""Issue 25: what the nodes sharing one Redis decide and count together. A ban or a
maintenance set through one node's admin API holds on the other node, and on a node
started after it; the lobby's ``online`` counts every node's connections."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus

from server.app import App
from server.node.moderation import REFRESH_SECONDS
from server.settings import Settings

from ..server.wire import WireClient

TOKEN = "an-admin-token-of-the-tests"
Start = Callable[[str], Awaitable[App]]


@pytest.fixture
async def start(redis_url: str) -> AsyncIterator[Start]:
    """Start a node on the test Redis (``await start("a")``); all stopped after the test."""
    started: list[App] = []

    async def one(name: str) -> App:
        settings = Settings(
            port=0,
            admin_port=0,
            admin_token=TOKEN,
            lease_ms=600,
            redis_url=redis_url,
            node_id=name,
        )
        app = await App.start(settings)
        started.append(app)
        return app

    try:
        yield one
    finally:
        for app in started:
            await app.stop(drain_seconds=0)


def url(app: App) -> str:
    return f"ws://127.0.0.1:{app.port}/"


async def admin(app: App, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    assert app.admin_server is not None
    port = app.admin_server.sockets[0].getsockname()[1]
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=data,
        method=method,
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
    )

    def call() -> Any:
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.loads(response.read())

    return await asyncio.to_thread(call)


async def soon(check: Callable[[], Awaitable[bool]], seconds: float = 5.0) -> None:
    """Wait for ``check`` (the other nodes read the store each ``REFRESH_SECONDS``)."""
    deadline = time.monotonic() + seconds
    while not await check():
        assert time.monotonic() < deadline, "not within the time"
        await asyncio.sleep(0.1)


async def online(client: WireClient) -> int:
    await client.send({"type": "list_tables"})
    found = await client.until(lambda m: m["type"] == "online")
    return int(found["count"])


async def test_the_online_count_is_every_nodes_connections(start: Start) -> None:
    a, b = await start("a"), await start("b")
    on_a = [await WireClient.open(url(a), version=2) for _ in range(3)]
    on_b = [await WireClient.open(url(b), version=2) for _ in range(2)]

    async def five() -> bool:
        return await online(on_a[0]) == 5 and await online(on_b[0]) == 5

    await soon(five)
    for client in on_b:
        await client.close()

    async def three() -> bool:
        return await online(on_a[0]) == 3

    await soon(three)
    for client in on_a:
        await client.close()


async def test_a_ban_made_through_one_node_holds_on_the_other_and_after_a_restart(
    start: Start,
) -> None:
    a, b = await start("a"), await start("b")
    mallory = await WireClient.open(url(b))
    await mallory.request({"type": "create_table", "options": {"deals": 1}}, "table_created")
    answer = await admin(a, "POST", "/admin/bans", {"player": "Mallory", "seconds": 60})
    assert answer["disconnected"] == 0  # she is on b
    table = await mallory.request({"type": "create_table", "options": {}}, "table_created")
    table_id = table["table"]["table_id"]

    async def banned_on_b() -> bool:
        return b.node.moderation.player_banned("Mallory") is not None

    await soon(banned_on_b)
    await mallory.send({"type": "join", "table_id": table_id, "name": "Mallory"})
    refused = await mallory.until(lambda m: m["type"] in ("error", "joined"))
    assert refused["type"] == "error" and refused["code"] == "banned"
    await admin(b, "POST", "/admin/bans", {"address": "127.0.0.1", "seconds": 60})
    c = await start("c")  # started after both bans: it holds them
    with pytest.raises(InvalidStatus) as closed:
        await WireClient.open(url(c))
    assert closed.value.response.status_code == 403
    assert (await admin(c, "GET", "/admin/bans"))["players"].keys() == {"mallory"}
    await admin(c, "POST", "/admin/unban", {"address": "127.0.0.1"})

    async def back_on_a() -> bool:
        try:
            client = await WireClient.open(url(a))
        except InvalidStatus:
            return False
        await client.close()
        return True

    await soon(back_on_a)


async def test_a_maintenance_announced_through_one_node_refuses_tables_on_the_other(
    start: Start,
) -> None:
    a, b = await start("a"), await start("b")
    bob = await WireClient.open(url(b))
    await admin(a, "POST", "/admin/announce", {"message": "restart at 18:00"})
    told = await bob.until(lambda m: m["type"] == "error" and m["code"] == "maintenance")
    assert told["message"] == "restart at 18:00"  # b's players are told too
    await bob.send({"type": "create_table", "options": {}})
    refused = await bob.until(lambda m: m["type"] in ("error", "table_created"))
    assert refused["type"] == "error" and refused["code"] == "maintenance"
    assert b.node.metrics.maintenance._value.get() == 1
    await admin(b, "POST", "/admin/announce", {"message": "we are back", "maintenance": False})
    await asyncio.sleep(REFRESH_SECONDS + 0.5)
    await a.node.watch.tick()
    assert a.node.moderation.maintenance is None
    await bob.close()
