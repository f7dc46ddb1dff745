"""A signed-in player's mutes last (docs/PROTOCOL.md, section 17, ``mute``): kept in the
history database (migration 0008), applied on every connection of the account, the
open ones at once and the next ones at sign-in; a guest's last as long as its
connection. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from server.app import App
from server.history import accounts
from server.node.archive import Archive
from server.settings import Settings
from tests.history.databases import postgres_database

from .social_wire import (
    PASSWORD,
    V2Client,
    done,
    events_of,
    next_event,
    player,
    settled,
    table_of,
    url_of,
)


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
async def node(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[App]:
    async def started(db_url: str) -> App:
        archive = await Archive.open(db_url)
        return await App.start(Settings(port=0, next_deal_seconds=30), archive=archive)

    if request.param == "sqlite":
        running = await started(f"sqlite:///{tmp_path / 'history.sqlite3'}")
        yield running
        await running.stop(drain_seconds=0)
        return
    async with postgres_database() as url:
        running = await started(url)
        yield running
        await running.stop(drain_seconds=0)


async def signed_in(app: App, name: str) -> V2Client:
    client = await V2Client.open(url_of(app))
    assert isinstance(client, V2Client)
    await client.request({"type": "sign_in", "name": name, "password": PASSWORD}, "signed_in")
    return client


async def test_a_mute_holds_on_every_connection_of_the_account_and_after_a_reload(
    node: App,
) -> None:
    anna, bob = await player(node, "Anna"), await player(node, "Bob")
    table_id = await table_of(anna, bob)
    tab = await signed_in(node, "Bob")  # Bob's second tab, open before the mute
    await tab.request({"type": "watch", "table_id": table_id}, "snapshot")
    await bob.request({"type": "mute", "name": "ANNA"}, "muted")
    await done(anna, {"type": "chat", "preset": "hello"})
    await settled(bob, "b")
    await settled(tab, "t")
    assert events_of(bob, "chat") == events_of(tab, "chat") == []
    await bob.close()
    await tab.close()
    again = await signed_in(node, "Bob")  # a reload: a new connection, signed in
    await again.request({"type": "watch", "table_id": table_id}, "snapshot")
    await done(anna, {"type": "chat", "preset": "oops"})
    await settled(again, "a")
    assert events_of(again, "chat") == []
    listed = await again.request({"type": "mute", "name": "Dan"}, "muted")
    assert listed["names"] == ["anna", "dan"]
    await again.request({"type": "unmute", "name": "anna"}, "muted")
    await done(anna, {"type": "chat", "preset": "thanks"})
    assert (await next_event(again, "chat"))["preset"] == "thanks"
    later = await signed_in(node, "Bob")
    assert (await later.request({"type": "unmute", "name": "x"}, "muted"))["names"] == ["dan"]


async def test_a_guest_s_mutes_last_as_long_as_its_connection(node: App) -> None:
    anna = await player(node, "Anna")
    table_id = await table_of(anna)
    guest = await V2Client.open(url_of(node))
    await guest.request({"type": "watch", "table_id": table_id}, "snapshot")
    await guest.request({"type": "mute", "name": "Anna"}, "muted")
    await done(anna, {"type": "chat", "preset": "hello"})
    await settled(guest, "g")
    assert events_of(guest, "chat") == []
    await guest.close()
    back = await V2Client.open(url_of(node))
    await back.request({"type": "watch", "table_id": table_id}, "snapshot")
    await done(anna, {"type": "chat", "preset": "oops"})
    assert (await next_event(back, "chat"))["preset"] == "oops"


async def test_mutes_made_as_a_guest_are_kept_for_the_account_at_sign_in(node: App) -> None:
    await (await player(node, "Bob")).close()
    bob = await V2Client.open(url_of(node))
    await bob.request({"type": "mute", "name": "Anna"}, "muted")
    await bob.request({"type": "sign_in", "name": "Bob", "password": PASSWORD}, "signed_in")
    await bob.close()
    again = await signed_in(node, "Bob")
    assert (await again.request({"type": "unmute", "name": "x"}, "muted"))["names"] == ["anna"]
