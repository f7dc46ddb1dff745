"""Rated quick play with accounts (a node with a history database): two signed-in players
meet by rating and sit under their accounts' names; a table one leaves mid-series delays
that account's next queue (PROTOCOL.md section 16, docs/RATINGS.md "Quick play")."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from server.app import App
from server.history import accounts
from server.node.archive import Archive
from server.settings import QueueSettings, Settings

from ..wire import WireClient
from .test_quickplay import confirm, kind, v2

PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


@pytest.fixture
async def node(tmp_path: Path) -> AsyncIterator[App]:
    queue = QueueSettings(fill_three_seconds=1, fill_two_seconds=1, tick_seconds=0.05)
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    running = await App.start(Settings(port=0, lease_ms=600, queue=queue), archive=archive)
    try:
        yield running
    finally:
        await running.stop(drain_seconds=0)


async def signed_up(app: App, name: str) -> WireClient:
    client = await v2(f"ws://127.0.0.1:{app.port}/")
    await client.request({"type": "sign_up", "name": name, "password": PASSWORD}, "signed_in")
    return client


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
