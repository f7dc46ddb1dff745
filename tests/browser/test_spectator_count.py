"""The number of spectators is shown live at the table (docs/PROTOCOL.md, section 17,
``spectators``): in the chat panel's bar, as spectators come and go, with no reload."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from clients.python import Client
from server.app import App

from .conftest import NewPlayer


async def watchers(page: Page) -> str:
    return await page.locator("#chat .chat-watchers").inner_text()


@pytest.mark.timeout(120)
async def test_the_table_shows_how_many_watch_as_they_come_and_go(
    new_player: NewPlayer, server: App
) -> None:
    alice = await new_player(1366, 768)
    await alice.open()
    await alice.page.fill("#player-name", "Alice")
    await alice.page.click("#create-form [type=submit]")
    await alice.page.wait_for_selector("#chat .chat-presets button")
    table_id = alice.table_id()
    assert await watchers(alice.page) == ""
    url = f"ws://127.0.0.1:{server.port}/"
    async with await Client.connect(url) as carl:
        await carl.watch(table_id)
        await alice.page.wait_for_function(
            "() => document.querySelector('#chat .chat-watchers').textContent === '1 watching'"
        )
        async with await Client.connect(url) as dan:
            await dan.watch(table_id)
            await alice.page.wait_for_function(
                "() => document.querySelector('#chat .chat-watchers').textContent === '2 watching'"
            )
        await alice.page.wait_for_function(
            "() => document.querySelector('#chat .chat-watchers').textContent === '1 watching'"
        )
    await alice.page.wait_for_function(
        "() => document.querySelector('#chat .chat-watchers').textContent === ''"
    )
    assert not alice.errors
