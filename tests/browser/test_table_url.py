"""Issue 25.2: the browser names its table in the WebSocket URL (``/t/ID``), so that a
balancer hashing on it sends the page to the node of the table's other players."""

from __future__ import annotations

import re

import pytest

from .conftest import NewPlayer


@pytest.mark.timeout(120)
async def test_a_page_at_a_table_connects_with_the_table_in_its_url(
    new_player: NewPlayer,
) -> None:
    player = await new_player(1366, 768, query="speed=0")
    urls: list[str] = []
    player.page.on("websocket", lambda ws: urls.append(ws.url))
    await player.open()
    await player.page.wait_for_selector("#conn[data-status=online]")
    assert urls and "/t/" not in urls[0], urls  # the lobby names no table
    await player.page.click("[data-action=quick-start]")
    await player.page.wait_for_selector("#hand .card", timeout=30000)
    await player.page.reload()  # a new connection while at the table
    await player.page.wait_for_selector("#conn[data-status=online]")
    await player.page.wait_for_selector("#hand .card", timeout=30000)
    named = [u for u in urls if re.search(r"/t/[A-Za-z0-9_-]+$", u)]
    assert named, urls
    assert not player.errors, player.errors
