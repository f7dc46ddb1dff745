"""The terminal client's chat: chat lines in its log (as text), presets said with keys 1-8
(docs/PROTOCOL.md, section 17; docs/CLIENTS.md)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from textual.widgets import RichLog

from clients.python import Client, TableState
from clients.terminal import TableApp
from clients.terminal.render import chat_line, preset_of_key, rematch_line
from protocol import models as m
from server.app import App
from server.history import accounts
from server.node.archive import Archive
from server.settings import Settings

PASSWORD = "correct horse battery"


@pytest.fixture
async def url() -> AsyncIterator[str]:
    app = await App.start(Settings(port=0, next_deal_seconds=30, chat_guest_deals=0))
    try:
        yield f"ws://127.0.0.1:{app.port}/"
    finally:
        await app.stop(drain_seconds=0)


def logged(app: TableApp) -> str:
    return "\n".join(line.text for line in app.query_one("#log", RichLog).lines)


def test_keys_name_the_presets_and_chat_lines_say_who() -> None:
    assert [preset_of_key(k) for k in "128"] == ["hello", "good_luck", "bye"]
    assert preset_of_key("9") is None and preset_of_key("x") is None and preset_of_key(None) is None
    line = chat_line(m.ChatEvent(seat=None, name="Dan", preset="well_played"))
    assert line == "Dan (watching): Well played!"


async def test_the_terminal_shows_the_chat_and_says_a_preset_with_a_key(url: str) -> None:
    other = await Client.connect(url, codec="json")
    created = await other.create_table(m.TableOptions(deals=1, ai_level="random"))
    table_id = created.table.table_id
    await other.join(table_id, seat=0, name="Ann")
    app = TableApp(url, table_id=table_id, seat=2, name="Zoe", codec="json")
    async with app.run_test(size=(120, 40)) as pilot:
        async with asyncio.timeout(30):
            while "Press s to start" not in app.decision.prompt:
                await pilot.pause(0.01)
        await other.say(text="hi <b>Zoe</b>, ready?")
        async with asyncio.timeout(10):
            while "Ann: hi <b>Zoe</b>, ready?" not in logged(app):
                await pilot.pause(0.02)
        await pilot.press("2")  # good luck
        async with asyncio.timeout(10):
            while not (other.state and other.state.chat and other.state.chat[-1].seat == 2):
                await pilot.pause(0.02)
        assert other.state is not None and other.state.chat[-1].preset == "good_luck"
        assert "Zoe: Good luck!" in logged(app)
        await pilot.press("q")
    await other.close()


def test_a_rematch_closed_on_time_says_who_did_not_answer() -> None:
    state = TableState("t", seat=0)
    state.table = m.TableSummary(
        table_id="t",
        options=m.TableOptions(deals=1),
        seats=[m.SeatInfo(seat=s, occupant="human", name=n) for s, n in enumerate("ABCD")],
        status="finished",
    )
    closed = m.RematchEvent(
        table_id="n", accepted=[0], declined=[2], started=True, timed_out=[1, 3]
    )
    assert rematch_line(state, closed) == (
        "Rematch at table n closed: You accepted, no answer from B, D."
    )


def test_an_open_rematch_says_when_it_ends() -> None:
    state = TableState("t", seat=1)
    state.table = m.TableSummary(
        table_id="t",
        options=m.TableOptions(deals=1),
        seats=[m.SeatInfo(seat=s, occupant="human", name=n) for s, n in enumerate("ABCD")],
        status="finished",
    )
    offer = m.RematchEvent(table_id="n", accepted=[0], declined=[2], deadline_ms=50_000)
    assert rematch_line(state, offer, now_ms=21_600) == (
        "Rematch at table n: A accepted; C declined. The offer ends in 28 s."
    )
    assert rematch_line(state, offer) == "Rematch at table n: A accepted; C declined."


async def test_the_chat_line_says_text_and_mutes_and_unmutes_by_name(url: str) -> None:
    """``t`` opens the chat line: Enter says its text, or runs /mute, /unmute;
    the game's keys wait while it is open (``s`` is a letter of the text)."""
    other = await Client.connect(url, codec="json")
    created = await other.create_table(m.TableOptions(deals=1, ai_level="random"))
    table_id = created.table.table_id
    await other.join(table_id, seat=0, name="Ann")
    app = TableApp(url, table_id=table_id, seat=2, name="Zoe", codec="json")
    async with app.run_test(size=(120, 40)) as pilot:
        async with asyncio.timeout(30):
            while "Press s to start" not in app.decision.prompt:
                await pilot.pause(0.01)

        async def line(text: str) -> None:
            await pilot.press("t", *text, "enter")

        await line("yes, start soon")
        async with asyncio.timeout(10):
            while not (other.state and other.state.chat and other.state.chat[-1].seat == 2):
                await pilot.pause(0.02)
        assert other.state.chat[-1].text == "yes, start soon"
        assert app.state is not None and app.state.table is not None
        assert app.state.table.status == "waiting"  # its s was text, not the start key
        await other.say(text="buy gold at my shop")
        async with asyncio.timeout(10):
            while "Ann: buy gold at my shop" not in logged(app):
                await pilot.pause(0.02)
        await line("/mute ann")
        async with asyncio.timeout(10):
            while "Muted: ann." not in logged(app):
                await pilot.pause(0.02)
        await other.say(text="cheap gold")
        await line("/unmute Ann")
        async with asyncio.timeout(10):
            while "Muted: nobody." not in logged(app):
                await pilot.pause(0.02)
        await other.say(text="still here")
        async with asyncio.timeout(10):
            while "Ann: still here" not in logged(app):
                await pilot.pause(0.02)
        assert "cheap gold" not in logged(app)  # said while muted: hidden
        await line("/shout")
        assert "Commands: /mute NAME" in logged(app)
        await pilot.press("t", "x", "escape", "q")
    await other.close()


async def test_a_signed_in_terminal_blocks_and_reports_from_the_chat_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tarot play --account``: the terminal signs in before it sits, so /block (an
    account's) and /report (kept in the history) work from its chat line."""
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    server = await App.start(Settings(port=0, next_deal_seconds=30), archive=archive)
    url = f"ws://127.0.0.1:{server.port}/"
    try:
        async with await Client.connect(url, codec="json") as maker:
            await maker.sign_up("Zoe", PASSWORD)
        other = await Client.connect(url, codec="json")
        await other.sign_up("Ann", PASSWORD)
        created = await other.create_table(m.TableOptions(deals=1, ai_level="random"))
        table_id = created.table.table_id
        await other.join(table_id, seat=0)
        app = TableApp(url, table_id=table_id, seat=2, codec="json", account=("Zoe", PASSWORD))
        async with app.run_test(size=(120, 40)) as pilot:
            async with asyncio.timeout(30):
                while "Press s to start" not in app.decision.prompt:
                    await pilot.pause(0.01)
            assert app.client is not None and app.client.account is not None
            assert app.client.account.name == "Zoe"
            await other.say(text="buy gold at my shop")
            async with asyncio.timeout(10):
                while "Ann: buy gold at my shop" not in logged(app):
                    await pilot.pause(0.02)
            await pilot.press("t", *"/report ann spam", "enter")
            async with asyncio.timeout(10):
                while "Reported ann's last message (report" not in logged(app):
                    await pilot.pause(0.02)
            await pilot.press("t", *"/block Ann", "enter")
            async with asyncio.timeout(10):
                while "Blocked Ann" not in logged(app):
                    await pilot.pause(0.02)
            await pilot.press("q")
        await other.close()
    finally:
        await server.stop(drain_seconds=0)
