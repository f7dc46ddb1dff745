"""Words in the reader's language (issue 27.4, 27.9): the review names cards, never codes,
and its graph says what it shows (a mean over one round, not each player's jumps); plurals
and elision in French; "Quick game" in the reader's language; the header's link whole at
1366 px; the screen reader's live region in the language just chosen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ai.review.judge import ReviewSettings
from server.app import App
from server.node.bots import BotRunner
from server.node.reviews import Reviews

from .conftest import NewPlayer

CODE = re.compile(r"(?<![\w/])(T\d{1,2}|EX|(?:10|[1-9JNQK])[SHDC])(?![\w/])")


@pytest.mark.timeout(240)
async def test_the_review_names_cards_and_graphs_a_mean_over_one_round(
    new_player: NewPlayer, server: App, artifacts: Path
) -> None:
    server.node.reviews = Reviews(BotRunner(1), ReviewSettings(budget_ms=10.0))
    player = await new_player(1366, 768, query="speed=0", lang="fr")
    await player.open()
    await player.page.locator("#quick-ai").select_option("basic")
    await player.page.click("[data-action=quick-start]")
    await player.play_until("sheet", timeout=120)
    await player.page.click(".sheet [data-action=review-deal]")
    await player.page.wait_for_selector(".sheet.review[data-status=done]", timeout=150000)
    review = next(f for f in player.frames if f.get("type") == "deal_review")["review"]
    graphed = [d for d in review["decisions"] if d["taker_score"] is not None]
    # Every decision's words: the dots' titles, and a step with a better choice shown.
    titles = await player.page.locator("[data-field=review-graph] circle title").evaluate_all(
        "els => els.map(e => e.textContent)"
    )
    assert len(titles) == len(graphed)
    assert not [t for t in titles if CODE.search(t)], [t for t in titles if CODE.search(t)][:3]
    better = next((d for d in graphed if d["best"] != d["chosen"]), graphed[-1])
    await player.page.click(f"[data-field=review-graph] circle[data-step='{better['index']}']")
    step = await player.text(".review-step")
    assert not CODE.search(step), step
    await player.screenshot(artifacts / "review-words-fr.png")
    # The curve: each point the mean of the last four estimates (one round of the table).
    scores = [d["taker_score"] for d in graphed]
    means = [
        sum(scores[max(0, i - 3) : i + 1]) / len(scores[max(0, i - 3) : i + 1])
        for i in range(len(scores))
    ]
    top = max(1.0, *(abs(m) for m in means))
    ys = await player.page.locator("[data-field=review-graph] circle").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('cy')))"
    )
    assert ys == pytest.approx([80 - 68 * m / top for m in means], abs=0.1)
    caption = await player.text(".review-graph figcaption")
    assert "moyenne" in caption and "4" in caption, caption
    assert not player.errors, player.errors


@pytest.mark.timeout(150)
async def test_french_plurals_elision_quick_game_live_region_and_header_link(
    new_player: NewPlayer, artifacts: Path
) -> None:
    player = await new_player(1366, 768, query="speed=0")
    page = player.page
    await player.open()
    await page.click("[data-action=quick-start]")
    await player.play_until("play", tricks=1, timeout=60)
    live = await player.text("#live")
    assert live, "the live region said something"
    await player.choose("#lang-select", "fr")
    # The live region is said again in the language chosen.
    assert await page.locator("#live").get_attribute("lang") == "fr"
    assert await player.text("#live") != live, live
    # "Quick game" in the reader's language, though made in English.
    assert await player.text("#info .info-title") == "Partie rapide"
    # Singular in French below 2: "1 pli joué sur 18".
    await page.wait_for_function("() => window.cardavia.app.table.deal.tricks.length >= 1")
    n = await page.evaluate("() => window.cardavia.app.table.deal.tricks.length")
    counted = await player.text("#info [data-section=points] .muted.small:last-child")
    assert counted == (f"{n} pli joué sur 18" if n < 2 else f"{n} plis joués sur 18"), counted
    names = await page.evaluate(
        """() => import('./cards.js').then((m) => [m.cardName('10S', 'fr'), m.cardName('1S', 'fr'),
            m.cardName('KH', 'fr'), m.cardName('QS', 'fr', 'french')])"""
    )
    assert names == ["10 d’Épée", "As d’Épée", "Roi de Coupe", "Dame de Pique"]
    for lang in ("fr", "nl"):
        await player.choose("#lang-select", lang)
        link = page.locator(".topbar-inner > .players-link")
        whole = await link.evaluate("e => e.scrollWidth <= e.clientWidth")
        assert whole, (lang, await link.inner_text())
        await player.screenshot(artifacts / f"header-link-{lang}-1366.png")
    assert not player.errors, player.errors
