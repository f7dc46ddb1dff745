"""The score sheet's "Review this deal": the server's AI analyses the deal just played, the
page shows its progress, then steps through the decisions with their marks, the better
choice drawn on the cards and an evaluation graph whose points jump to their decision."""

from __future__ import annotations

from pathlib import Path

from ai.review.judge import ReviewSettings
from server.app import App
from server.node.bots import BotRunner
from server.node.reviews import Reviews

from .conftest import NewPlayer

STEP = "window.cardavia.app.review?.step"


async def test_review_this_deal_steps_through_the_marks_and_the_graph(
    new_player: NewPlayer, server: App, artifacts: Path
) -> None:
    # a normal-priority review worker: the node's own (nice 19) waits on a busy test machine
    server.node.reviews = Reviews(BotRunner(1), ReviewSettings(budget_ms=20.0))
    player = await new_player()
    await player.open()
    await player.page.locator("#quick-ai").select_option("basic")
    await player.page.click("[data-action=quick-start]")
    await player.play_until("sheet", timeout=110)
    record = player.events("record")[-1]["record"]

    await player.page.click(".sheet [data-action=review-deal]")
    await player.page.wait_for_selector(".sheet.review[data-status=running]")
    await player.page.wait_for_selector(".sheet.review[data-status=done]", timeout=110000)
    review = next(f for f in player.frames if f.get("type") == "deal_review")["review"]
    progress = [f for f in player.frames if f.get("type") == "review_progress"]
    assert progress and progress[-1]["done"] == progress[-1]["total"] == len(review["decisions"])
    decisions = review["decisions"]
    assert [d["chosen"] for d in decisions if d["kind"] == "card"] == record["plays"]

    # The graph: one point per decision with an expected score for the taker.
    points = player.page.locator("[data-field=review-graph] circle")
    graphed = [d for d in decisions if d["taker_score"] is not None]
    assert await points.count() == len(graphed) > 40  # forced cards are not searched
    await player.screenshot(artifacts / "review-first-mark.png")

    # Clicking a point goes to its decision: the trick so far, the hand, the card marked.
    target = next(d for d in reversed(graphed) if d["kind"] == "card" and d["trick"] > 2)
    await player.page.click(f"[data-field=review-graph] circle[data-step='{target['index']}']")
    step = player.page.locator(".review-step")
    assert await step.get_attribute("data-step") == str(target["index"])
    assert await player.page.evaluate(STEP) == target["index"]
    chosen = player.page.locator(".review-hand .card.chosen")
    assert await chosen.get_attribute("data-card") == target["chosen"]
    assert await player.page.locator(".review-trick .card").count() == sum(
        d["kind"] == "card" and d["trick"] == target["trick"] and d["index"] < target["index"]
        for d in decisions
    )
    label = await step.get_attribute("data-label")
    assert label == target["label"]
    current = player.page.locator("[data-field=review-graph] circle.current")
    assert await current.get_attribute("data-step") == str(target["index"])
    await player.screenshot(artifacts / "review-point-clicked.png")

    # A decision whose better choice differs: the better card is drawn on the hand.
    # (a basic AI and a random player: the search disagrees with some card of the deal)
    better = next(d for d in decisions if d["kind"] == "card" and d["best"] != d["chosen"])
    await player.page.click(f"[data-field=review-graph] circle[data-step='{better['index']}']")
    marked = player.page.locator(".review-hand .card.better")
    assert await marked.get_attribute("data-card") == better["best"]
    name = await player.page.evaluate(  # by its name, not its code (issue 27.4)
        "(c) => import('./cards.js').then((m) => m.cardName(c, 'en'))", better["best"]
    )
    assert name in await player.text("[data-field=review-better]")
    await player.screenshot(artifacts / "review-better-card.png")

    # Previous / next move one decision; back to the sheet, and the review is kept.
    before = await player.page.evaluate(STEP)
    await player.page.click("[data-action=review-next]")
    assert await player.page.evaluate(STEP) == before + 1
    await player.page.click("[data-action=review-prev]")
    assert await player.page.evaluate(STEP) == before
    await player.page.click("[data-action=close-review]")
    await player.page.wait_for_selector(".sheet:not(.review)")
    sent = len([f for f in player.frames if f.get("type") == "deal_review"])
    await player.page.click(".sheet [data-action=review-deal]")
    await player.page.wait_for_selector(".sheet.review[data-status=done]")
    assert len([f for f in player.frames if f.get("type") == "deal_review"]) == sent
    assert not player.errors, player.errors


SHEET_STATE = """() => {
    const s = document.querySelector('.sheet.review');
    return {
        scroll: s.scrollTop,
        bottom: s.scrollHeight - s.clientHeight,
        unfolded: s.querySelector('details').open,
        fade: getComputedStyle(s.closest('.overlay')).animationName,
    };
}"""


async def test_stepping_through_a_review_on_a_phone_keeps_its_scroll_and_unfolded_parts(
    new_player: NewPlayer, server: App, artifacts: Path
) -> None:
    server.node.reviews = Reviews(BotRunner(1), ReviewSettings(budget_ms=20.0))
    player = await new_player(width=360, height=740)
    await player.open()
    await player.page.locator("#quick-ai").select_option("basic")
    await player.page.click("[data-action=quick-start]")
    await player.play_until("sheet", bid="pass", timeout=110)
    await player.page.click(".sheet [data-action=review-deal]")
    await player.page.wait_for_selector(".sheet.review[data-status=done]", timeout=110000)

    # Unfold "Per player", scroll down to the step buttons, step on: a phone's player
    # stays where the buttons are (the sheet used to be redrawn from its top, folded,
    # fading in again at each decision and each progress message).
    await player.page.click(".sheet.review details summary")
    top = await player.page.evaluate(
        "() => { const s = document.querySelector('.sheet.review');"
        " s.scrollTop = s.scrollHeight; return s.scrollTop; }"
    )
    assert top > 50, "the review fits the phone's screen: nothing to scroll"
    step = await player.page.evaluate(STEP)
    await player.page.click("[data-action=review-next]")
    assert await player.page.evaluate(STEP) == step + 1
    state = await player.page.evaluate(SHEET_STATE)
    # (a shorter decision may leave less to scroll: the sheet is then at its bottom)
    assert state["scroll"] == min(top, state["bottom"]) > 0, state
    assert (state["unfolded"], state["fade"]) == (True, "none"), state
    await player.screenshot(artifacts / "review-phone-next.png")
    assert not player.errors, player.errors
