"""Quick play never seats two accounts at one table when one blocked the other (either
way: PROTOCOL.md sections 16 and 17, DEPLOY.md "Chat"), in every mode, on the memory
store and on Redis: the matcher is given the blocked pairs among the accounts it groups
(``blocked_pairs``, the history database), when it proposes a group and again before it
seats one (a block made during the ready check). Guests can neither block nor be
blocked (``block`` needs an account, and names an account)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.app import App
from server.node.archive import Archive
from server.queue.settings import QueueSettings
from server.settings import Settings

from ..conftest import STORES, running_app
from ..social_wire import player as signed_up
from ..wire import WireClient
from .test_quickplay import kind

pytestmark = pytest.mark.usefixtures("cheaper_argon2")


@pytest.fixture(params=STORES)
async def node(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[App]:
    # Two humans may start (with two AI) after 1 s: a blocked pair alone would be a table.
    queue = QueueSettings(
        fill_three_seconds=1, fill_two_seconds=1, ready_seconds=5, tick_seconds=0.05
    )
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    settings = Settings(port=0, lease_ms=600, queue=queue)
    async with running_app(request.param, settings, archive) as running:
        yield running


async def block(client: WireClient, name: str) -> None:
    assert (await client.request({"type": "block", "name": name}, "blocked"))["name"] == name


@pytest.mark.parametrize(("mode", "blocker"), [("casual", 0), ("rated", 1)])
async def test_a_blocked_pair_is_never_seated_together_by_quick_play(
    node: App, mode: str, blocker: int
) -> None:
    """Three accounts queue, one pair blocked (either way): the third plays with one of
    them (two humans, two AI), never the three together."""
    ann, bob, cid = [await signed_up(node, n) for n in ("Annette", "Bobby", "Cidalia")]
    if blocker == 0:
        await block(ann, "Bobby")
    else:
        await block(bob, "Annette")
    for client in (ann, bob, cid):
        await client.request({"type": "queue", "mode": mode}, "queue_status")
    found = await cid.until(kind("match_found"), 15)
    assert found["humans"] == 2 and found["ai"] == 2  # the blocked pair is not in one group
    await cid.send({"type": "ready", "match_id": found["match_id"]})
    partner = None
    for client in (ann, bob):
        await client.send({"type": "ready", "match_id": found["match_id"], "id": "r"})
        answer = await client.until(lambda m: m.get("re") == "r")
        if answer["type"] == "queue_status":
            assert partner is None, "both of the blocked pair were in Cidalia's group"
            partner = client
    assert partner is not None
    joined = await cid.until(kind("joined"), 15)
    assert (await partner.until(kind("joined"), 15))["table_id"] == joined["table_id"]
    seats = node.node.runtimes[joined["table_id"]].data.seats
    humans = sorted(s.name for s in seats if s.occupant == "human")
    assert humans in (["Annette", "Cidalia"], ["Bobby", "Cidalia"])


async def test_a_block_during_the_ready_check_keeps_the_pair_apart(node: App) -> None:
    """The two were proposed one table; one blocks the other before both confirm: they
    are not seated, and search again."""
    ann, bob = await signed_up(node, "Annette"), await signed_up(node, "Bobby")
    for client in (ann, bob):
        await client.request({"type": "queue"}, "queue_status")
    found = await ann.until(kind("match_found"), 15)
    assert (await bob.until(kind("match_found")))["match_id"] == found["match_id"]
    await block(bob, "Annette")
    for client in (ann, bob):
        await client.request({"type": "ready", "match_id": found["match_id"]}, "queue_status")
    for client in (ann, bob):
        after = await client.until(kind("queue_status", "joined"), 15)
        assert after["type"] == "queue_status" and after["state"] == "searching"
    tables = node.node.runtimes.values()
    assert not any(r.data.options.name.startswith("Quick play") for r in tables)


@pytest.mark.parametrize("store", STORES)
async def test_a_ready_group_searches_again_past_its_deadline_while_the_history_is_down(
    store: str, tmp_path: Path
) -> None:
    """Four accounts confirmed their ready check; the history (who blocked whom) stops
    answering before they are seated: past the ready check's deadline they search again
    (``queue_status`` ``searching``), never left waiting on a check that is over."""
    folder = tmp_path / "history"
    folder.mkdir()
    archive = await Archive.open(f"sqlite:///{folder / 'history.sqlite3'}")
    # The test ticks; the leases outlast the ready check's deadline the matcher is given.
    manual = QueueSettings(tick_seconds=3600.0, ready_seconds=30.0, lease_ms=120_000)
    async with running_app(store, Settings(port=0, lease_ms=600, queue=manual), archive) as app:
        names = ("Annette", "Bobby", "Cidalia", "Dorian")
        clients = [await signed_up(app, name) for name in names]
        for client in clients:
            await client.request({"type": "queue"}, "queue_status")
        quickplay = app.node.quickplay
        await quickplay.tick()  # proposes (the history answers: no blocks)
        await quickplay.tick()  # tells
        founds = [await client.until(kind("match_found")) for client in clients]
        for client, found in zip(clients, founds, strict=True):
            await client.request({"type": "ready", "match_id": found["match_id"]}, "queue_status")
        assert archive.engine is not None
        await archive.engine.dispose()  # the history goes: its file can no longer be opened
        folder.rename(tmp_path / "gone")
        await quickplay.match_once(founds[0]["deadline_ms"] + 1)
        await quickplay.tick()
        for client in clients:
            status = await client.until(kind("queue_status", "joined"), 5)
            assert status["type"] == "queue_status" and status["state"] == "searching"
        tables = app.node.runtimes.values()
        assert not any(r.data.options.name.startswith("Quick play") for r in tables)
