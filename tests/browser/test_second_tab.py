"""'Play here' in a second tab (issue 27.10): the first tab says the game moved to the
other tab, not "Connection lost — reconnecting…", which is not what happened."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import NewPlayer
from .player import Player


@pytest.mark.timeout(120)
async def test_the_first_tab_says_the_game_moved_when_another_takes_it(
    new_player: NewPlayer, artifacts: Path
) -> None:
    first = await new_player(1366, 768, query="speed=0")
    await first.open()
    await first.page.click("[data-action=quick-start]")
    await first.page.wait_for_selector("#seats .seat")
    second = Player(await first.page.context.new_page(), first.url)
    await second.open()
    await second.page.click("[data-action=play-here]")
    await second.page.wait_for_selector("#seats .seat")
    await first.page.wait_for_selector("#prompt [data-field=moved]")
    prompt = await first.text("#prompt")
    assert prompt == "Your game moved to another tab or window: it goes on there.", prompt
    assert "Connection lost" not in await first.page.locator("#view-table").inner_text()
    await first.screenshot(artifacts / "second-tab-moved.png")
    assert not first.errors and not second.errors, (first.errors, second.errors)
