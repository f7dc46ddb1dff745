"""What a reload keeps (issue 27.3, 27.12): the sheet of the deal just played opens again
with "Review this deal" and "Save the deal" (a guest reaches the review), and the cards
chosen for the discard stay chosen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import engine

from ..deal_seeds import deal_from, ordinary, where
from .conftest import NewPlayer
from .player import Player


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


@pytest.mark.timeout(150)
async def test_the_cards_chosen_for_the_discard_stay_chosen_across_a_reload(
    new_player: NewPlayer, artifacts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_from(monkeypatch, where("strong-seat-0", strong_for(0)))  # this seat takes
    player = await new_player(1366, 768, query="speed=0")
    await player.open()
    await player.page.click("[data-action=quick-start]")
    discard = player.page.locator("#hand [data-mode=discard]")
    while not await discard.count():
        await player.step(bid="garde")
        await player.page.wait_for_timeout(100)
    rule = player.legal()["discard"]
    allowed = [c for c in rule["allowed"] if c not in rule["required"]]
    chosen = [*rule["required"], *allowed[: 3 - len(rule["required"])]]
    for code in chosen[len(rule["required"]) :]:
        await player.page.click(f'#hand .card[data-card="{code}"]', position={"x": 6, "y": 44})
    assert sorted(await selected(player)) == sorted(chosen)
    await player.page.reload()
    await player.page.wait_for_selector("#hand [data-mode=discard]")
    await player.page.wait_for_function(
        f"() => document.querySelectorAll('#hand .card.selected').length === {len(chosen)}"
    )
    assert sorted(await selected(player)) == sorted(chosen)
    await player.screenshot(artifacts / "reload-discard.png")
    assert not player.errors, player.errors


async def selected(player: Player) -> list[str]:
    return list(
        await player.page.locator("#hand .card.selected").evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
    )


def strong_for(seat: int) -> Callable[[str], bool]:
    """An ordinary deal where ``seat`` holds ten trumps or more, whoever deals: it bids
    a garde and the others, short of trumps, let it take."""

    def strong(seed: str) -> bool:
        hands = [engine.new_deal(dealer, bytes.fromhex(seed)).hands[seat] for dealer in range(4)]
        return ordinary(seed) and all((hand & engine.TRUMPS).bit_count() >= 10 for hand in hands)

    return strong
