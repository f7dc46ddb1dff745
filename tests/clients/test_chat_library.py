"""The client library's chat and rematch (docs/PROTOCOL.md, section 17; docs/CLIENTS.md):
``say``, ``mute``, ``block``, ``report``, ``rematch``; chat lands in ``state.chat`` and
never takes a seat's turn away."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from clients.python import Client, Refused
from clients.terminal.panels import header_text
from protocol import models as m
from server.app import App
from server.history import accounts
from server.node.archive import Archive
from server.settings import Settings

PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


@pytest.fixture
async def url(tmp_path: Path) -> AsyncIterator[str]:
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    app = await App.start(Settings(port=0, next_deal_seconds=30), archive=archive)
    try:
        yield f"ws://127.0.0.1:{app.port}/"
    finally:
        await app.stop(drain_seconds=0)


async def until(check: object, seconds: float = 10.0) -> None:
    async with asyncio.timeout(seconds):
        while not check():  # type: ignore[operator]
            await asyncio.sleep(0.02)


async def test_say_mute_block_report_through_the_library(url: str) -> None:
    async with await Client.connect(url) as anna, await Client.connect(url) as bob:
        await anna.sign_up("Anna", PASSWORD)
        await bob.sign_up("Bob", PASSWORD)
        created = await anna.create_table(m.TableOptions(deals=1, ai_level="random"))
        table_id = created.table.table_id
        await anna.join(table_id, seat=0)
        await bob.join(table_id, seat=1)
        await anna.start()
        await anna.say(preset="good_luck")
        with pytest.raises(Refused) as refused:
            await anna.say(text="my hand is great")
        assert refused.value.code == "chat_refused"
        assert bob.state is not None
        await until(lambda: bob.state is not None and bob.state.chat)
        said = bob.state.chat[0]
        assert (said.name, said.preset, said.seat) == ("Anna", "good_luck", 0)
        assert await bob.mute("anna") == ["anna"]
        assert await bob.unmute("Anna") == []
        assert await bob.block("ANNA") == "Anna"
        assert await bob.report(bob.state.chat_seqs[0], "blocked and reported") >= 1
        tables = await anna.list_tables()  # an ``online`` after ``tables``: not in the stream
        assert [t.table_id for t in tables] == [table_id]


async def test_the_spectator_count_is_kept_live_in_the_state(url: str) -> None:
    """``spectators`` (protocol 2) moves ``state.table.spectators``, and the terminal's
    header says it: no snapshot needed."""
    async with await Client.connect(url) as anna:
        created = await anna.create_table(m.TableOptions(deals=1, ai_level="random"))
        table_id = created.table.table_id
        await anna.join(table_id, seat=0, name="Anna")
        assert anna.state is not None and anna.state.table is not None
        assert anna.state.table.spectators == 0
        async with await Client.connect(url) as carl, await Client.connect(url) as dan:
            await carl.watch(table_id)
            await dan.watch(table_id)
            await until(lambda: anna.state.table.spectators == 2)
            assert "· 2 watching" in header_text(anna.state).plain
            await until(lambda: carl.state.table.spectators == 2)  # type: ignore[union-attr]
        await until(lambda: anna.state.table.spectators == 0)
        assert "watching" not in header_text(anna.state).plain


async def test_rematch_through_the_library_follows_the_new_table(url: str) -> None:
    """``rematch(True)`` returns the new table's state (this client follows it from then
    on); ``rematch(False)`` returns None; once every human answered the new table starts."""
    from clients.python import Bot, play_table

    async with await Client.connect(url) as anna, await Client.connect(url) as bob:
        created = await anna.create_table(m.TableOptions(deals=1, ai_level="random"))
        table_id = created.table.table_id
        await anna.join(table_id, seat=0, name="Anna")
        await bob.join(table_id, seat=1, name="Bob")
        await anna.start()
        await asyncio.gather(play_table(anna, Bot()), play_table(bob, Bot()))
        again = await anna.rematch(True)
        assert again is not None and again.table_id != table_id and again.seat == 0
        assert await bob.rematch(False) is None
        assert bob.state is not None and bob.state.table_id == table_id
        await until(lambda: bob.state.rematch is not None and bob.state.rematch.started)
        totals = await play_table(anna, Bot())  # the AI took Bob's seat
        assert sum(totals) == 0 and anna.state is not None and anna.state.over
