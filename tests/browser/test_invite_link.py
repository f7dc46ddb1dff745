"""The invitation a quick game hands out (issue 27.2): a game under way can only be
watched, so its link offers "Watch" and no "Take a seat" (which the server refuses with
deal_in_progress); the invitation names the table and who invites, not the raw id."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import NewPlayer


@pytest.mark.timeout(120)
async def test_a_quick_games_link_invites_to_watch_naming_the_table_and_the_sender(
    new_player: NewPlayer, artifacts: Path
) -> None:
    host = await new_player(1366, 768, query="speed=0")
    await host.open()
    await host.page.fill("#player-name", "Chloé")
    await host.page.click("[data-action=quick-start]")
    await host.page.wait_for_selector("#invite-link")
    link = await host.page.locator("#invite-link").input_value()
    table_id = host.table_id()
    assert f"#watch={table_id}" in link and "join=" not in link, link

    friend = await new_player(1366, 768, lang="fr")
    await friend.page.goto(link)
    await friend.page.wait_for_selector("#conn[data-status=online]")
    text = await friend.text("[data-field=invited-text]")
    assert text == "Chloé vous invite à regarder sa partie en cours : Partie rapide.", text
    assert table_id not in text
    assert not await friend.visible("[data-action=join-invite]")
    await friend.screenshot(artifacts / "invite-watch-fr.png")
    await friend.page.click("[data-action=watch-invite]")
    await friend.page.wait_for_selector("#seats .seat")
    assert await friend.page.evaluate("() => window.cardavia.app.table.seat") is None
    assert not friend.errors and not host.errors, (friend.errors, host.errors)
