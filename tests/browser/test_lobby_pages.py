"""The lobby past its first page (issue 14.4): the server lists 50 tables a page with a
``next`` cursor; the browser shows a "More tables" control that opens the next one."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from playwright.async_api import Page

from server.app import App
from server.settings import Settings

from ..server.wire import WireClient, close_all
from .conftest import NewPlayer

TABLES = 63  # a full page of 50, and 13 more


@pytest.fixture
async def server() -> AsyncIterator[App]:
    """The browser tests' server, with room for one address to open TABLES tables."""
    settings = Settings(
        port=0, next_deal_seconds=30, tables_per_address=TABLES, tables_per_connection=TABLES
    )
    app = await App.start(settings)
    try:
        yield app
    finally:
        await close_all()
        await app.stop(drain_seconds=0)


async def open_tables(server: App, count: int) -> set[str]:
    client = await WireClient.open(f"ws://127.0.0.1:{server.port}/")
    names = set()
    for n in range(count):
        name = f"Table {n:02d}"
        await client.request(
            {"type": "create_table", "options": {"name": name, "deals": 1}}, "table_created"
        )
        names.add(name)
    return names


async def shown_names(page: Page) -> list[str]:
    return await page.locator(".open-tables .table-row .table-meta strong").all_inner_texts()


@pytest.mark.timeout(120)
async def test_the_lobby_opens_the_tables_past_the_first_fifty(
    server: App, new_player: NewPlayer
) -> None:
    names = await open_tables(server, TABLES)
    player = await new_player()
    await player.open()
    rows = player.page.locator(".open-tables .table-row")
    await player.page.wait_for_function(
        "() => document.querySelectorAll('.open-tables .table-row').length === 50"
    )
    more = player.page.locator(".open-tables [data-action=more-tables]")
    assert await more.inner_text() == "More tables"
    await more.click()
    await player.page.wait_for_function(
        f"() => document.querySelectorAll('.open-tables .table-row').length === {TABLES}"
    )
    shown = await shown_names(player.page)
    assert sorted(shown) == sorted(names)  # every table once
    assert await more.count() == 0  # the last page: nothing more to open
    # A refresh keeps the pages opened.
    await player.page.click(".open-tables [data-action=refresh]")
    await player.page.wait_for_timeout(300)
    assert await rows.count() == TABLES
