"""A sign-in reads the account's blocks and mutes from the history while its other
connections on the node go on: a block or a mute made meanwhile, after the read began,
stays (docs/PROTOCOL.md, section 17). The read is held open after it read the database
(a real SQLite history) until the other connection's block, mute or unmute is done."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

import server.history
from server.app import App
from server.history import accounts
from server.node.archive import Archive
from server.settings import Settings

from .social_wire import PASSWORD, V2Client, done, events_of, player, settled, table_of, url_of


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


@pytest.fixture
async def node(tmp_path: Path) -> AsyncIterator[App]:
    settings = Settings(port=0, next_deal_seconds=30)
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    running = await App.start(settings, archive=archive)
    yield running
    await running.stop(drain_seconds=0)


class HeldRead:
    """The history read ``name`` (of server.history), held once after it read until
    ``release``: what it read is from before anything the test does meanwhile."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
        self.real: Callable[..., Awaitable[Any]] = getattr(server.history, name)
        self.read, self.released, self.held = asyncio.Event(), asyncio.Event(), False
        monkeypatch.setattr(server.history, name, self)

    async def __call__(self, *args: Any) -> Any:
        found = await self.real(*args)
        if not self.held:
            self.held = True
            self.read.set()
            await self.released.wait()
        return found


async def signed_in_meanwhile(client: V2Client, held: HeldRead, meanwhile: Awaitable[Any]) -> None:
    """``client`` signs in as Anna; ``meanwhile`` is done after its read, before its answer."""
    await client.send({"type": "sign_in", "name": "Anna", "password": PASSWORD, "id": "in"})
    await asyncio.wait_for(held.read.wait(), 10)
    await meanwhile
    held.released.set()
    await client.until(lambda m: m.get("re") == "in" and m["type"] == "signed_in")


async def test_a_block_made_while_the_blocked_account_signs_in_again_is_kept(
    node: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    anna, bob = await player(node, "Anna"), await player(node, "Bob")
    await table_of(anna, bob, start=False)
    held = HeldRead(monkeypatch, "hidden_accounts")
    again = await V2Client.open(url_of(node))
    assert isinstance(again, V2Client)
    blocked = bob.request({"type": "block", "name": "Anna"}, "blocked")
    await signed_in_meanwhile(again, held, blocked)
    await done(bob, {"type": "chat", "text": "hidden from Anna"})
    await done(anna, {"type": "chat", "text": "hidden from Bob"})
    await settled(anna, "a")
    await settled(bob, "b")
    assert [e["text"] for e in events_of(anna, "chat")] == ["hidden from Bob"]  # her own
    assert [e["text"] for e in events_of(bob, "chat")] == ["hidden from Anna"]


async def test_a_mute_made_while_the_account_signs_in_again_is_kept(
    node: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    anna = await player(node, "Anna")
    held = HeldRead(monkeypatch, "muted_names")
    again = await V2Client.open(url_of(node))
    assert isinstance(again, V2Client)
    muted = anna.request({"type": "mute", "name": "Carl"}, "muted")
    await signed_in_meanwhile(again, held, muted)
    answer = await again.request({"type": "mute", "name": "Dora"}, "muted")
    assert sorted(answer["names"]) == ["carl", "dora"]


async def test_an_unmute_made_while_the_account_signs_in_again_is_kept(
    node: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    anna = await player(node, "Anna")
    await anna.request({"type": "mute", "name": "Carl"}, "muted")
    held = HeldRead(monkeypatch, "muted_names")
    again = await V2Client.open(url_of(node))
    assert isinstance(again, V2Client)
    unmuted = anna.request({"type": "unmute", "name": "Carl"}, "muted")
    await signed_in_meanwhile(again, held, unmuted)
    answer = await again.request({"type": "mute", "name": "Dora"}, "muted")
    assert sorted(answer["names"]) == ["dora"]


async def test_a_block_on_one_node_hides_nothing_on_another_node_of_the_process(
    node: App, tmp_path: Path
) -> None:
    # Two nodes of one process, each with its history (their ids are the same there), and
    # an account numbered alike in each: a block in one is no block in the other.
    settings = Settings(port=0, next_deal_seconds=30)
    archive = await Archive.open(f"sqlite:///{tmp_path / 'other.sqlite3'}")
    other = await App.start(settings, archive=archive)
    try:
        anna, bob = await player(other, "Anna"), await player(other, "Bob")
        await table_of(anna, bob, start=False)
        here_anna, here_bob = await player(node, "Anna"), await player(node, "Bob")
        assert (here_anna.account_id, here_bob.account_id) == (anna.account_id, bob.account_id)
        await here_bob.request({"type": "block", "name": "Anna"}, "blocked")
        await done(bob, {"type": "chat", "text": "shown to Anna"})
        await settled(anna, "a")
        assert [e["text"] for e in events_of(anna, "chat")] == ["shown to Anna"]
    finally:
        await other.stop(drain_seconds=0)
