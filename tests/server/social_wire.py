"""Helpers of the chat and rematch tests: version 2 wire clients, a node with accounts.

Version 2 may carry a table's events one per ``event`` frame or several in an
``events`` frame (docs/PROTOCOL.md, sections 5 and 17); ``table_events`` reads both.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from server.app import App
from server.node.archive import Archive
from server.settings import Settings

from .conftest import STORES, running_app
from .wire import OPEN_CLIENTS, Message, WireClient

PASSWORD = "correct horse battery"


class V2Client(WireClient):
    account_id: int | None = None  # signed up by ``player``

    @classmethod
    async def open(
        cls, url: str, codec: str = "json", hello: bool = True, version: int = 2
    ) -> WireClient:
        v2 = ["tarot.v2.json"]
        ws = await connect(url, subprotocols=v2, max_size=2**22, max_queue=None)  # type: ignore[arg-type]
        client = cls(ws, False)
        OPEN_CLIENTS.append(client)
        if hello:
            await client.send({"type": "hello", "protocol": 2})
            assert (await client.recv())["type"] == "welcome"
        return client


def table_events(message: Message) -> list[dict[str, Any]]:
    """The table events of a frame, each with its ``seq``: none for other frames."""
    if message["type"] == "event":
        return [{"seq": message["seq"], **message["event"]}]
    if message["type"] == "events":
        return [{"seq": e["seq"], **e["event"]} for e in message["events"]]
    return []


def with_event(kind: str) -> Callable[[Message], bool]:
    return lambda m: any(e["kind"] == kind for e in table_events(m))


def events_of(client: WireClient, kind: str) -> list[dict[str, Any]]:
    """Every event of ``kind`` the client has received so far."""
    return [e for m in client.received for e in table_events(m) if e["kind"] == kind]


async def next_event(client: WireClient, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    message = await client.until(with_event(kind), timeout=timeout)
    return [e for e in table_events(message) if e["kind"] == kind][-1]


_IDS = iter(range(1, 1 << 30))


async def done(client: WireClient, message: Message) -> Message:
    """Send a table change and wait for its answer (an ``ack``, or in version 2 the
    ``events`` frame that carries its ``re``); an ``error`` fails the test."""
    marker = f"r{next(_IDS)}"
    await client.send({**message, "id": marker})
    return await client.until(lambda m: m.get("re") == marker, check_error=True)


async def refused(client: WireClient, message: Message) -> Message:
    """Send ``message`` and return the ``error`` it gets."""
    await client.send(message)
    return await client.until(lambda m: m["type"] == "error", timeout=10.0)


async def settled(client: WireClient, marker: Any) -> None:
    """Every frame sent to ``client`` before now has been read (a ping's pong came back)."""
    await client.send({"type": "ping", "id": marker})
    await client.until(lambda m: m["type"] == "pong" and m.get("re") == marker)


@pytest.fixture(params=STORES)
async def node(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[App]:
    """A node with a history database (accounts), on the memory store and on Redis."""
    settings = Settings(port=0, next_deal_seconds=30, lease_ms=600)
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    async with running_app(request.param, settings, archive) as running:
        yield running


def url_of(app: App) -> str:
    return f"ws://127.0.0.1:{app.port}/"


async def player(app: App, name: str) -> V2Client:
    """A version 2 connection signed up as ``name``."""
    client = await V2Client.open(url_of(app))
    assert isinstance(client, V2Client)
    signed = await client.request(
        {"type": "sign_up", "name": name, "password": PASSWORD}, "signed_in"
    )
    client.account_id = signed["account"]["id"]
    return client


async def table_of(
    creator: WireClient, *others: WireClient, start: bool = True, deals: int = 1
) -> str:
    """A table with ``creator`` and ``others`` seated (seats 0, 1...), AI in the rest."""
    options = {"deals": deals, "ai_level": "random"}
    created = await creator.request({"type": "create_table", "options": options}, "table_created")
    table_id: str = created["table"]["table_id"]
    for seat, client in enumerate((creator, *others)):
        await client.request({"type": "join", "table_id": table_id, "seat": seat}, "joined")
    if start:
        await done(creator, {"type": "start"})
    return table_id
