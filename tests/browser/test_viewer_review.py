"""Review this deal from the deal viewer, in Chromium: a stored deal (a defender gives its
King of spades away, docs/results/2026-12-01/review/king-given-away.json) reviewed by its
id with review_stored_deal; the review opens at the marked card, with the graph, and its
points jump to their decision. Screenshots in test-artifacts/."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ai.review.judge import ReviewSettings
from server.app import App
from server.history import FinishedDeal, Occupant, sheet_of, store_deal
from server.node.archive import Archive
from server.node.bots import BotRunner
from server.node.reviews import Reviews
from server.settings import Settings

from .conftest import NewPlayer

RECORD = Path(__file__).resolve().parents[2] / "docs/results/2026-12-01/review/king-given-away.json"
WHEN = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[App]:
    """A node with a history database holding the deal, and a quicker review worker (20 ms
    a decision, ~6 s a deal, which still marks the King: a blunder; at normal priority:
    nice 19 waits on a busy test machine)."""
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    app = await App.start(Settings(port=0, next_deal_seconds=30), archive=archive)
    old = app.node.reviews
    old.close()
    app.node.reviews = Reviews(BotRunner(1), ReviewSettings(budget_ms=20.0))
    app.node.reviews.kept, app.node.reviews.limits = old.kept, old.limits
    record = json.loads(RECORD.read_text())
    seats = (Occupant(guest_name="Anna"), *(Occupant(ai_level="expert") for _ in range(3)))
    deal = FinishedDeal("t-king", 0, record, sheet_of(record), WHEN, WHEN, seats)
    assert archive.engine is not None
    await store_deal(archive.engine, deal)
    try:
        yield app
    finally:
        await app.stop(drain_seconds=0)


async def test_review_a_stored_deal_from_the_viewer(
    new_player: NewPlayer, server: App, base_url: str, artifacts: Path
) -> None:
    page = (await new_player()).page
    await page.goto(f"{base_url}players.html#/deal/t-king/0/0")
    await page.wait_for_selector("#viewer")
    await page.click("[data-action=review-stored]")
    dialog = page.locator(".sheet.review")
    await dialog.wait_for()
    await page.wait_for_selector(".sheet.review[data-status=done]", timeout=120_000)
    # It opens at the first marked decision: seat 1's King of spades, the better card drawn.
    step = page.locator(".review-step")
    assert await step.get_attribute("data-label") == "blunder"
    assert await step.get_attribute("data-kind") == "card"
    assert await page.locator(".review-hand .chosen[data-card=KS]").count() == 1
    assert await page.locator(".review-hand .better").count() == 1
    await page.screenshot(path=str(artifacts / "viewer-review-mark.png"), full_page=True)
    points = page.locator("[data-field=review-graph] circle")
    assert await points.count() > 5
    target = await points.nth(2).get_attribute("data-step")
    await points.nth(2).click()
    assert await page.locator(".review-step").get_attribute("data-step") == target
    await page.screenshot(path=str(artifacts / "viewer-review-point.png"), full_page=True)
    await page.click("[data-action=close-review]")
    assert await dialog.count() == 0
    assert server.node.reviews.decisions > 0
    # Asked again after a reload: from the database, at once.
    analysed = server.node.reviews.decisions
    await page.reload()
    await page.wait_for_selector("#viewer")
    await page.click("[data-action=review-stored]")
    await page.wait_for_selector(".sheet.review[data-status=done]", timeout=10_000)
    assert server.node.reviews.decisions == analysed
