"""The duplicate events' results pages (issue 24, point 4) in Chromium: the events, an
event's standings, a deal's results in every seat linked to the deal viewer and its AI
review, in English, Dutch and French, at 390x844 and 1366x768. Three entrants play a
robot event of 2 deals through the protocol first. Screenshots in test-artifacts/."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.app import App
from server.history import end_event

from ..server.duplicate.players import Player, history_app, new_event
from .conftest import NewPlayer

WORDS = {
    "en": ("Duplicate events", "Standing", "Deal viewer", "AI review", "Passed out"),
    "nl": ("Duplicaattoernooien", "Klassement", "Spel bekijken", "AI-analyse", "Iedereen paste"),
    "fr": ("Tournois en duplicate", "Classement", "Revoir la donne", "Analyse de l’IA", "passé"),
}


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[App]:
    async with history_app(tmp_path) as app:
        yield app


async def _play(app: App) -> int:
    url = f"ws://127.0.0.1:{app.port}/"
    event_id = await new_event(app, 2, name="Daily 2026-12-03")

    async def play(player: Player) -> None:
        await player.ask({"type": "duplicate_enter", "event_id": event_id}, "duplicate_entered")
        for _ in range(2):
            await player.ask({"type": "duplicate_play", "event_id": event_id}, "joined")
            await player.play_until_over()
            await player.ask({"type": "leave"}, "left")

    names = ("Chloé", "Bartholomew-Alexander", "Dani")
    await asyncio.gather(*[play(await Player.sign_up(url, n, i)) for i, n in enumerate(names)])
    archive = app.node.archive
    assert archive is not None and archive.engine is not None and archive.duplicates
    await archive.duplicates.settled()
    await end_event(archive.engine, event_id)
    await archive.writer.flush()
    return event_id


async def test_results_pages_in_three_languages_on_a_phone_and_a_desktop(
    new_player: NewPlayer, server: App, base_url: str, artifacts: Path
) -> None:
    event_id = await _play(server)
    for lang, (title, standing, viewer, review, _) in WORDS.items():
        for width, height in ((390, 844), (1366, 768)):
            player = await new_player(width=width, height=height, query="", lang=lang)
            page = player.page
            await page.goto(f"{base_url}players.html#/duplicate")
            await page.wait_for_selector(f"#duplicate-events h2:has-text('{title}')")
            await page.click(f"[data-event='{event_id}'] a")
            await page.wait_for_selector("#duplicate-standings")
            assert await page.locator("#duplicate-standings tbody tr").count() == 3
            assert standing in await page.inner_text("#duplicate-standings thead")
            await page.screenshot(path=str(artifacts / f"duplicate-standings-{lang}-{width}.png"))
            await page.click("[data-deal='0']")
            await page.wait_for_selector("#duplicate-results")
            rows = page.locator("#duplicate-results tbody tr")
            assert await rows.count() == 3
            assert viewer in await page.inner_text("#duplicate-results")
            assert review in await page.inner_text("#duplicate-results")
            overflow = await page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            await page.screenshot(path=str(artifacts / f"duplicate-deal-{lang}-{width}.png"))
            assert overflow <= 0, f"the page scrolls sideways by {overflow} px at {width}"
            if lang == "en" and width == 1366:  # the links reach the viewer and the review
                await rows.first.locator("[data-link=viewer]").click()
                await page.wait_for_selector("#viewer", timeout=15000)
                await page.go_back()
                await page.wait_for_selector("#duplicate-results")
                played = rows.filter(has=page.locator("[data-link=review]")).first
                await played.locator("[data-link=review]").click()
                await page.wait_for_selector(".sheet.review", timeout=30000)
                await page.screenshot(path=str(artifacts / "duplicate-review-en-1366.png"))
