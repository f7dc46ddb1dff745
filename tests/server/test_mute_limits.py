"""Mutes and blocks are bounded (docs/PROTOCOL.md, section 17): past ``chat_mutes_max``
names muted, or accounts blocked, the next is refused with a typed error and nothing is
kept; the ``muted`` answer never grows past the cap. A guest's mutes, an account's
(kept in the history), and the guest mutes carried into an account at sign-in."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, select

from server.app import App
from server.history import Accounts, accounts, muted_names
from server.history.chat_safety import blocks
from server.net.signin import MutedNames, _carried
from server.node.archive import Archive
from server.settings import Settings

from .social_wire import PASSWORD, V2Client, player, refused, url_of

CAP = Settings().chat_mutes_max


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


@pytest.fixture
async def node(tmp_path: Path) -> AsyncIterator[App]:
    """A node with accounts that lets one connection send fast (the limit is the test's)."""
    settings = Settings(port=0, next_deal_seconds=30, rate_per_second=5000, rate_burst=5000)
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    running = await App.start(settings, archive=archive)
    yield running
    await running.stop(drain_seconds=0)


async def mute_all(client: V2Client, names: list[str]) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for name in names:
        answer = await client.request({"type": "mute", "name": name}, "muted")
    return answer


def names(count: int, prefix: str = "n") -> list[str]:
    return [f"{prefix}{i:04d}" for i in range(count)]


async def test_a_guest_mutes_at_most_the_cap_then_gets_too_many_mutes(node: App) -> None:
    guest = await V2Client.open(url_of(node))
    assert isinstance(guest, V2Client)
    answer = await mute_all(guest, names(CAP))
    assert len(answer["names"]) == CAP
    error = await refused(guest, {"type": "mute", "name": "one more"})
    assert error["code"] == "too_many_mutes", error
    await guest.request({"type": "mute", "name": "N0001"}, "muted")  # muted already: fine
    await guest.request({"type": "unmute", "name": "n0000"}, "muted")
    answer = await guest.request({"type": "mute", "name": "one more"}, "muted")
    assert len(answer["names"]) == CAP


async def test_an_account_keeps_at_most_the_cap_of_mutes(node: App) -> None:
    anna = await player(node, "Anna")
    await mute_all(anna, names(CAP))
    error = await refused(anna, {"type": "mute", "name": "one more"})
    assert error["code"] == "too_many_mutes", error
    archive = node.node.archive
    assert archive is not None and archive.engine is not None
    assert anna.account_id is not None
    assert len(await muted_names(archive.engine, anna.account_id)) == CAP
    # A guest's mutes carried into the account at sign-in fill only the room left.
    guest = await V2Client.open(url_of(node))
    assert isinstance(guest, V2Client)
    await mute_all(guest, names(3, "g"))
    await guest.request({"type": "sign_in", "name": "Anna", "password": PASSWORD}, "signed_in")
    assert len(await muted_names(archive.engine, anna.account_id)) == CAP


async def test_an_account_blocks_at_most_the_cap_then_gets_too_many_blocks(node: App) -> None:
    archive = node.node.archive
    assert archive is not None and archive.engine is not None
    book = Accounts(archive.engine)
    for name in names(CAP + 1, "b"):
        await book.sign_up(name, PASSWORD)
    anna = await player(node, "Anna")
    for name in names(CAP, "b"):
        await anna.request({"type": "block", "name": name}, "blocked")
    await anna.request({"type": "block", "name": "b0000"}, "blocked")  # blocked already
    error = await refused(anna, {"type": "block", "name": f"b{CAP:04d}"})
    assert error["code"] == "too_many_blocks", error
    async with archive.engine.connect() as conn:
        query = select(func.count()).select_from(blocks)
        assert (await conn.execute(query)).scalar_one() == CAP


def test_guest_mutes_carried_while_the_history_is_down_fill_only_the_room_left() -> None:
    # Sign-in reads the account's mutes from the history; when that read fails the guest's
    # own mutes are still carried into the account's set, under the same cap, the first
    # names in order as the history would keep them (``signin._carried``).
    held = MutedNames(names(CAP - 2))
    carried = _carried(held, {"zed", "amy", "mo", "n0000"}, CAP)
    assert carried is held and len(held) == CAP
    assert {"amy", "mo"} <= held and "zed" not in held
    assert _carried(MutedNames(), {"b", "a"}, 1) == {"a"}
    assert _carried(MutedNames(names(CAP + 1)), {"a"}, CAP) == set(names(CAP + 1))  # no room
