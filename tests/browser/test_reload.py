"""What a reload keeps (issue 27.3, 27.12): the sheet of the deal just played opens again
with "Review this deal" and "Save the deal" (a guest reaches the review), and the cards
chosen for the discard stay chosen."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import NewPlayer


@pytest.mark.timeout(150)
async def test_a_reload_after_a_deal_reopens_its_sheet_with_review_and_save(
    new_player: NewPlayer, artifacts: Path
) -> None:
    player = await new_player(1366, 768, query="speed=0")
    await player.open()
    await player.page.locator("#quick-ai").select_option("basic")
    await player.page.click("[data-action=quick-start]")
    await player.play_until("sheet", timeout=120)
    await player.page.wait_for_selector(".sheet [data-action=review-deal]")
    deal = await player.page.locator(".sheet").get_attribute("data-deal")
    await player.page.reload()
    await player.page.wait_for_selector("#conn[data-status=online]")
    await player.page.wait_for_selector(".sheet", timeout=10000)
    assert await player.page.locator(".sheet").get_attribute("data-deal") == deal
    assert await player.visible(".sheet [data-action=review-deal]")
    assert await player.visible(".sheet [data-action=save-record]")
    await player.screenshot(artifacts / "reload-sheet.png")
    await player.page.click(".sheet [data-action=review-deal]")
    await player.page.wait_for_selector(".sheet.review")
    assert not player.errors, player.errors
