"""A poignee shown live: the deal is rigged (only its seed is chosen) so that the
browser's seat holds 11 or 12 trumps, and the player shows another subset than
the offer's by clicking. Everyone then sees it, and the sheet counts it (R18)."""

from __future__ import annotations

import pytest

import engine
from engine import TRUMPS

from ..deal_seeds import deal_from, where
from .conftest import NewPlayer


def a_simple_poignee_at_seat_0(seed: str) -> bool:
    """Seat 0 is dealt 11-12 trumps, the Excuse aside, by seat 0 (a table's first dealer).

    11 or 12: a simple poignee (10 shown) with a trump to spare for the swap, and
    not enough for a double, which would change the offer's level."""
    deal = engine.new_deal(0, bytes.fromhex(seed))
    return 11 <= (deal.dealt[0] & TRUMPS).bit_count() <= 12


@pytest.mark.timeout(180)
async def test_a_poignee_is_shown_by_clicks_and_everyone_sees_it(
    new_player: NewPlayer, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_from(monkeypatch, where("poignee", a_simple_poignee_at_seat_0))
    player = await new_player()
    await player.open()
    await player.page.click("[data-action=quick-start]")
    await player.play_until("sheet", poignee=True)

    shown = player.played.poignee
    assert len(shown) == 10, "the poignee was never offered"
    offers = [t["legal"]["poignees"] for t in player.your_turns() if t["legal"].get("poignees")]
    assert [o["level"] for o in offers[-1]] == ["simple"]
    assert sorted(shown) != sorted(offers[-1][0]["cards"])  # another trump was picked
    event = player.events("poignee")[-1]
    assert (event["seat"], event["level"], sorted(event["cards"])) == (0, "simple", sorted(shown))
    on_screen = await player.page.locator("[data-section=poignees] .card").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert sorted(on_screen) == sorted(shown)
    record = player.events("record")[-1]["record"]
    assert sorted(record["poignees"]["0"]) == sorted(shown)
    sheet = await player.check_sheet_matches_server()
    assert [b["kind"] for b in sheet["bonuses"]].count("poignee") == 1


@pytest.mark.timeout(120)
async def test_the_log_says_a_simple_poignee_mid_sentence_in_lower_case(
    new_player: NewPlayer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It read "shows a Simple poignée." (issue 15.12)."""
    deal_from(monkeypatch, where("poignee", a_simple_poignee_at_seat_0))
    player = await new_player()
    await player.open()
    await player.page.click("[data-action=quick-start]")
    await player.play_until(poignee=True, tricks=1)
    assert player.played.poignee, "the poignee was never offered"
    lines = await player.page.evaluate("() => window.cardavia.app.ui.log.map((line) => line())")
    (said,) = [line for line in lines if "poign" in line.lower()]
    assert said.endswith("shows a simple poignée."), said
