"""The leaver of a rated quick-play table is rated last even when another node writes the
deal (docs/RATINGS.md, "Quick play"): who left during which deal is kept with the table in
the store (``SeatData.left_account_id``, ``left_deal``), not in the memory of the node
where the player left. Two nodes on one Redis and one history database: Annette leaves
deal 1 on node A, node A goes, Bobby finishes the deal on node B, and node B's writer
rates Annette last."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import select

from server.app import App
from server.history.schema import rating_changes
from server.node.archive import Archive
from server.queue.settings import QueueSettings
from server.settings import Settings

from ...deal_seeds import deal_from, ordinary, where
from ..conftest import REDIS_TEST_URL, flush
from ..social_wire import player as signed_up
from .test_quickplay import confirm, kind, v2
from .test_rated_queue import _play_the_deal

pytestmark = [pytest.mark.redis, pytest.mark.usefixtures("cheaper_argon2")]


async def start(db: str) -> App:
    queue = QueueSettings(fill_three_seconds=1, fill_two_seconds=1, tick_seconds=0.05)
    settings = Settings(port=0, lease_ms=600, queue=queue, redis_url=REDIS_TEST_URL)
    return await App.start(settings, archive=await Archive.open(db))


@pytest.fixture
async def nodes(tmp_path: Path) -> AsyncIterator[tuple[App, App]]:
    await flush(REDIS_TEST_URL)
    db = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    a, b = await start(db), await start(db)
    try:
        yield a, b
    finally:
        await b.stop(drain_seconds=0)
        await a.stop(drain_seconds=0)  # again, if the test stopped it: harmless
        await flush(REDIS_TEST_URL)


async def test_the_leaver_is_rated_last_when_another_node_writes_the_deal(
    nodes: tuple[App, App], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = nodes
    deal_from(monkeypatch, where("leaver-other-node", ordinary))  # a deal to rate
    ann, bob = await signed_up(a, "Annette"), await signed_up(a, "Bobby")
    for client in (ann, bob):
        await client.request({"type": "queue", "mode": "rated", "deals": 1}, "queue_status")
    await confirm(ann)
    await confirm(bob)
    joined = await ann.until(kind("joined"))
    bob_joined = await bob.until(kind("joined"))
    table_id, ann_seat = joined["table_id"], joined["seat"]
    await ann.request({"type": "leave"}, "left")  # mid-deal, on node A
    await a.stop(drain_seconds=0)  # node A goes: its writer never sees the deal end
    bob_b = await v2(f"ws://127.0.0.1:{b.port}/")
    await bob_b.request({"type": "resume", "token": bob_joined["token"]}, "joined")
    await _play_the_deal(bob_b)  # on node B, which loaded the table from Redis
    assert table_id in b.node.runtimes
    archive = b.node.archive
    assert archive is not None and archive.engine is not None
    await archive.writer.flush()
    async with archive.engine.connect() as conn:
        changes = (await conn.execute(select(rating_changes))).all()
    left = [c for c in changes if c.seat == ann_seat]
    assert len(left) == 1 and left[0].deal_number == 0
    assert left[0].rating_after < left[0].rating_before  # last: below Bobby
    [bobby] = [c for c in changes if c.seat == bob_joined["seat"]]
    assert bobby.rating_after > bobby.rating_before
