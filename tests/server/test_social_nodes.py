"""Quick play, chat, rematch and the counts across two nodes of one Redis and one history
(docs/PROTOCOL.md, sections 16 and 17): what one node does holds on the other, and a node
that stops in the middle leaves nothing stuck on the one that stays."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.app import App
from server.node.archive import Archive
from server.settings import Settings

from .conftest import REDIS_TEST_URL, flush
from .social_wire import V2Client, next_event, player, table_of, url_of
from .test_rematch import play_to_the_end
from .wire import WireClient

pytestmark = [pytest.mark.redis, pytest.mark.usefixtures("cheaper_argon2")]


async def start(db: str, node_id: str, **options: object) -> App:
    settings = Settings(
        port=0,
        lease_ms=600,
        next_deal_seconds=30,
        redis_url=REDIS_TEST_URL,
        node_id=node_id,
        **options,  # type: ignore[arg-type]
    )
    return await App.start(settings, archive=await Archive.open(db))


@pytest.fixture
async def two(tmp_path: Path) -> AsyncIterator[tuple[App, App]]:
    """Nodes "na" and "nb" on the test Redis and one SQLite history; rematch offers close
    after 2 s."""
    await flush(REDIS_TEST_URL)
    db = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    a = await start(db, "na", rematch_seconds=4.0)
    b = await start(db, "nb", rematch_seconds=4.0)
    try:
        yield a, b
    finally:
        await b.stop(drain_seconds=0)
        await a.stop(drain_seconds=0)  # again, if the test stopped it: harmless
        await flush(REDIS_TEST_URL)


async def resumed(app: App, token: str) -> WireClient:
    client = await V2Client.open(url_of(app))
    await client.request({"type": "resume", "token": token}, "joined")
    return client


async def test_a_rematch_accepted_on_a_node_that_stops_still_closes_on_time(
    two: tuple[App, App],
) -> None:
    """Anna accepts on node A, Bob says nothing; node A stops (a deploy drains it) and
    Anna resumes her new seat on node B. The offer closes 2 s after her accept: the new
    table starts, the AI in Bob's seat, whichever node is left."""
    a, b = two
    anna, bob = await player(a, "Anna"), await player(a, "Bob")
    await table_of(anna, bob)
    await asyncio.gather(play_to_the_end(anna, 1), play_to_the_end(bob, 2))
    joined = await anna.request({"type": "rematch", "accept": True}, "joined")
    await bob.close()
    await a.stop(drain_seconds=0)
    again = await resumed(b, joined["token"])
    dealt = await next_event(again, "deal_started", timeout=15)
    assert dealt["deal_number"] == 1


async def test_nodes_started_without_a_node_id_count_each_other_s_connections() -> None:
    """Two nodes of one image, each its container's process 1, started without
    ``--node-id`` (as the Dockerfile's command does): each must still be a node of its own
    to the others. Here both are in one process (the same pid): one connection on A and
    two on B are three online, on either node."""
    await flush(REDIS_TEST_URL)
    a = await App.start(Settings(port=0, lease_ms=600, redis_url=REDIS_TEST_URL))
    b = await App.start(Settings(port=0, lease_ms=600, redis_url=REDIS_TEST_URL))
    try:
        lobby = await V2Client.open(url_of(a))
        others = [await V2Client.open(url_of(b)) for _ in range(2)]
        await asyncio.sleep(2.5)  # each node tells its count every second
        for client in (lobby, others[0]):
            await client.send({"type": "list_tables"})
            online = await client.until(lambda m: m["type"] == "online")
            assert online["count"] == 3
    finally:
        await b.stop(drain_seconds=0)
        await a.stop(drain_seconds=0)
        await flush(REDIS_TEST_URL)
