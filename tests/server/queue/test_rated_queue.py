"""Rated quick play with accounts (a node with a history database): two signed-in players
meet by rating and sit under their accounts' names; a table one leaves mid-series delays
that account's next queue and is rated as the last place of the deal in progress, against
the other humans (PROTOCOL.md section 16, docs/RATINGS.md "Quick play")."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from server.app import App
from server.history.schema import rating_changes, seats
from server.node.archive import Archive
from server.queue.settings import QueueSettings
from server.settings import Settings

from ...deal_seeds import deal_from, ordinary, where
from ..conftest import running_app
from ..social_wire import player as signed_up
from ..wire import Message, WireClient
from .test_quickplay import confirm, kind

pytestmark = pytest.mark.usefixtures("cheaper_argon2")


@pytest.fixture
async def node(tmp_path: Path) -> AsyncIterator[App]:
    queue = QueueSettings(fill_three_seconds=1, fill_two_seconds=1, tick_seconds=0.05)
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    settings = Settings(port=0, lease_ms=600, queue=queue)
    async with running_app("memory", settings, archive) as running:
        yield running


async def test_two_accounts_meet_rated_and_a_leaver_waits(node: App) -> None:
    ann, bob = await signed_up(node, "Annette"), await signed_up(node, "Bobby")
    for client in (ann, bob):
        status = await client.request(
            {"type": "queue", "mode": "rated", "deals": 2}, "queue_status"
        )
        assert status["mode"] == "rated" and status["deals"] == 2
    await confirm(ann)
    await confirm(bob)
    joined = await ann.until(kind("joined"))
    await bob.until(kind("joined"))
    table = node.node.runtimes[joined["table_id"]].data
    assert table.options.name == "Quick play · rated"
    assert sorted(s.name for s in table.seats if s.occupant == "human") == ["Annette", "Bobby"]
    assert all(s.account_id is not None for s in table.seats if s.occupant == "human")
    await ann.request({"type": "leave"}, "left")  # mid-series: an abandon
    await ann.send({"type": "queue", "mode": "rated", "id": 9})
    status = await ann.until(lambda m: m["type"] == "queue_status" and m.get("re") == 9, 10)
    assert status["state"] == "penalty"
    assert (await ann.until(kind("error")))["code"] == "queue_penalty"


def _bid_or_play(legal: dict[str, Any]) -> dict[str, Any]:
    """Take (the lowest contract) so the deal is played, then any legal card or discard."""
    if legal["bids"]:
        bids = [b for b in legal["bids"] if b != "pass"]
        return {"kind": "bid", "contract": (bids or legal["bids"])[0]}
    if legal["discard"]:
        rule = legal["discard"]
        optional = [c for c in rule["allowed"] if c not in rule["required"]]
        cards = rule["required"] + optional[: rule["count"] - len(rule["required"])]
        return {"kind": "discard", "cards": cards}
    if legal["chelem"]:
        return {"kind": "chelem", "announce": False}
    return {"kind": "play", "card": legal["cards"][0]}


async def _play_the_deal(client: WireClient) -> None:
    """Answer the seat's turns (version 2: folded into ``events`` frames) until a score."""

    def scored(frame: Message) -> bool:
        return frame["type"] == "events" and any(
            e["event"]["kind"] in ("score", "cancelled") for e in frame["events"]
        )

    async with asyncio.timeout(60):
        while True:
            frame = await client.recv(60)
            assert frame["type"] != "error", frame
            turn = frame.get("your_turn") if frame["type"] in ("events", "snapshot") else None
            if turn is not None:
                await client.send({"type": "act", "action": _bid_or_play(turn["legal"])})
            if scored(frame):
                return


async def test_a_leaver_is_rated_last_of_the_deal_in_progress_once(
    node: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Annette leaves deal 1 of 2: the AI finishes her seat, the deal is stored with the AI
    there, and the writer rates Annette last against Bobby (he gains, she loses); deal 2,
    played by the AI in her seat from its start, does not rate her again."""
    deal_from(monkeypatch, where("leaver", ordinary))  # no petit sec: a deal to rate
    ann, bob = await signed_up(node, "Annette"), await signed_up(node, "Bobby")
    for client in (ann, bob):
        await client.request({"type": "queue", "mode": "rated", "deals": 2}, "queue_status")
    await confirm(ann)
    await confirm(bob)
    joined = await ann.until(kind("joined"))
    await bob.until(kind("joined"))
    table_id = joined["table_id"]
    ann_seat = joined["seat"]
    await ann.request({"type": "leave"}, "left")
    await _play_the_deal(bob)
    await _play_the_deal(bob)  # the second deal: the AI in Annette's seat from the start
    archive = node.node.archive
    assert archive is not None and archive.engine is not None
    await archive.writer.flush()
    async with archive.engine.connect() as conn:
        changes = (await conn.execute(select(rating_changes))).all()
        left_seat = (
            await conn.execute(
                select(seats).where(seats.c.table_id == table_id, seats.c.seat == ann_seat)
            )
        ).all()
    assert {row.ai_level for row in left_seat} == {
        node.node.runtimes[table_id].data.options.ai_level
    }
    assert all(row.account_id is None for row in left_seat)  # the AI played it
    by_name: dict[int, list[Any]] = {}
    for change in changes:
        by_name.setdefault(change.seat, []).append(change)
    left = by_name.pop(ann_seat)
    assert len(left) == 1 and left[0].deal_number == 0  # once: the deal she left
    assert left[0].rating_after < left[0].rating_before
    [bob_seat] = by_name
    first = [c for c in by_name[bob_seat] if c.deal_number == 0]
    assert len(first) == 1 and first[0].rating_after > first[0].rating_before
    # Deal 2: Bobby alone among AI, nobody moves (docs/RATINGS.md).
    assert all(c.deal_number == 0 for c in changes)
