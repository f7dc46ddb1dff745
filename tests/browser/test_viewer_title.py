"""The deal viewer (issue 27.14): titled by the deal's players, not "Table cnuq90zN, deal 1";
its last step shows the bouts and how the score was reached, as the table's sheet does;
a card's tooltip is its name, not its code."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.app import App
from server.node.archive import Archive
from server.settings import Settings

from ..deal_seeds import deal_from, ordinary, where
from .conftest import NewPlayer


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[App]:
    """A node with a history database: its deals can be viewed."""
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    app = await App.start(Settings(port=0, next_deal_seconds=30), archive=archive)
    try:
        yield app
    finally:
        await app.stop(drain_seconds=0)


@pytest.mark.timeout(150)
async def test_the_deal_viewer_names_its_players_and_shows_the_scores_working(
    new_player: NewPlayer,
    server: App,
    base_url: str,
    artifacts: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deal_from(monkeypatch, where("viewer-title", ordinary))  # played, not cancelled
    player = await new_player(1366, 768, query="speed=0")
    await player.open()
    await player.page.fill("#player-name", "Chloé")
    await player.page.click("[data-action=quick-start]")
    await player.play_until("sheet", timeout=120)
    sheet = player.events("score")[-1]["sheet"]
    table_id = player.table_id()
    assert server.node.archive is not None
    await server.node.archive.writer.flush()
    page = player.page
    await page.goto(f"{base_url}players.html#/deal/{table_id}/0/0")
    await page.wait_for_selector("#viewer[data-kind=hands]")
    title = await player.text("#viewer-title")
    assert table_id not in title and title.startswith("Deal 1 with Chloé, AI 2 (Expert)"), title
    tip = await page.locator("#viewer .mini-card").first.get_attribute("title")
    code = await page.locator("#viewer .mini-card").first.get_attribute("data-card")
    assert tip and tip != code, (tip, code)
    await page.keyboard.press("End")
    await page.wait_for_selector("#viewer[data-kind=sheet]")
    assert sheet["status"] == "played"
    assert await player.text("#viewer [data-field=bouts]") == str(sheet["bouts"])
    working = await player.text("#viewer [data-field=contract-score]")
    assert f"× {sheet['multiplier']}" in working, working
    assert working.endswith(f"= {sheet['contract_score']:g}"), working
    await player.screenshot(artifacts / "viewer-last-step-1366.png")
    assert not player.errors, player.errors
