"""Accounts and history in Chromium, on a node that keeps its history in a real SQLite
file: sign up on the players page, play a deal against three AI signed in, find it in
the profile (unrated against AI: no rating change nor chart; its table), step through it in the
viewer by keyboard, in English, French and Dutch. Screenshots in test-artifacts/."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from server.app import App
from server.history import accounts
from server.node.archive import Archive
from server.settings import Settings

from ..deal_seeds import deal_from, ordinary, where
from .conftest import NewPlayer

PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2id with small parameters (still the real hash and checks): the default's
    64 MiB, 3 passes cost ~1 s a hash on this shared machine, and these tests make many."""
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[App]:
    """The browser tests' node, with a history database (accounts, stored deals)."""
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    app = await App.start(Settings(port=0, next_deal_seconds=30), archive=archive)
    try:
        yield app
    finally:
        await app.stop(drain_seconds=0)


async def test_sign_up_play_a_deal_then_see_it_in_the_profile_and_step_through_it(
    new_player: NewPlayer,
    server: App,
    base_url: str,
    artifacts: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deal_from(monkeypatch, where("history-browser", ordinary))  # no petit sec
    player = await new_player()
    page = player.page
    await page.goto(f"{base_url}players.html")
    await page.fill("#account-form [name=name]", "Anna")
    await page.fill("#account-form [name=password]", "short")
    await page.click("[data-action=sign-up]")
    await page.wait_for_selector("#account-message:has-text('8 to 128')")
    await page.fill("#account-form [name=password]", PASSWORD)
    await page.click("[data-action=sign-up]")
    await page.wait_for_selector("#signed-in:has-text('Anna')")
    await page.screenshot(path=str(artifacts / "history-signed-up.png"))
    # A new password: a wrong current one is refused beside the form; then it is changed,
    # and this session stays signed in (the game page below says hello with it).
    new_password = "a better horse, stapled"
    await page.click("#password-change summary")
    await page.fill("#password-form [name=old]", "not the password")
    await page.fill("#password-form [name=new]", new_password)
    await page.click("[data-action=change-password]")
    await page.wait_for_selector("#password-message:has-text('Wrong name or password')")
    await page.fill("#password-form [name=old]", PASSWORD)
    await page.fill("#password-form [name=new]", new_password)
    await page.click("[data-action=change-password]")
    await page.wait_for_selector("#password-message:has-text('Password changed')")
    await page.screenshot(path=str(artifacts / "history-password-changed.png"))

    await player.open()  # the game page says hello with the account's session
    hello = await page.evaluate("() => window.cardavia.app.net.account")
    assert hello["name"] == "Anna"
    link = page.locator(".topbar-inner > .players-link")
    assert await link.inner_text() == "Anna"  # who is signed in, a link to the profile
    assert await link.get_attribute("href") == f"players.html#/player/{hello['id']}"
    assert await link.get_attribute("title") == "Signed in as Anna"
    await page.screenshot(path=str(artifacts / "history-game-signed-in.png"))
    await page.click("[data-action=quick-start]")
    await player.play_until("sheet")
    archive = server.node.archive
    assert archive is not None
    await archive.writer.flush()

    await page.goto(f"{base_url}players.html#/player/{hello['id']}")
    await page.wait_for_selector("#deal-list tbody tr")
    assert await page.locator("#profile-name").inner_text() == "Anna"
    # Against three AI the deal is stored, unrated: AI seats are no opponent (RATINGS.md).
    await page.wait_for_selector("#rating-chart-empty")
    change = await page.locator("#deal-list tbody tr td.num").nth(1).inner_text()
    assert change == "–"
    # The recent tables: this quick-start table of one deal, finished: its total is the
    # deal's score, its place that score's among the four, a link to its deal.
    assert await page.locator("#table-list tbody tr").count() == 1
    score = await page.locator("#deal-list tbody tr td.num").nth(0).inner_text()
    assert await page.locator("#table-list tbody tr td.num").nth(1).inner_text() == score
    scores = player.events("score")[-1]["sheet"]["scores"]
    place = 1 + sum(s > _number(score) for s in scores)
    assert await page.locator("#table-list [data-field=place]").inner_text() == f"{place} of 4"
    deal_link = await page.locator("#deal-list tbody tr a").get_attribute("href")
    assert await page.locator("#table-list .deal-links a").get_attribute("href") == deal_link
    await page.screenshot(path=str(artifacts / "history-profile.png"), full_page=True)

    await page.click("#table-list .deal-links a")
    await page.wait_for_selector("#viewer[data-kind=hands]")
    assert await page.locator("#viewer .viewer-hands .mini-card").count() == 72
    await page.screenshot(path=str(artifacts / "history-viewer-hands.png"), full_page=True)
    await page.keyboard.press("ArrowRight")
    await page.wait_for_selector("#viewer[data-kind=bids]")
    for _ in range(2):
        await page.keyboard.press("ArrowRight")
    await page.wait_for_selector("#viewer[data-kind=trick]")
    assert "Trick 1" in await page.locator("#step-title").inner_text()
    assert await page.locator("#viewer .viewer-trick .mini-card").count() == 4
    assert await page.locator("#viewer .viewer-play.winner").count() == 1
    await page.screenshot(path=str(artifacts / "history-viewer-trick.png"), full_page=True)
    await page.keyboard.press("ArrowLeft")
    await page.wait_for_selector("#viewer[data-kind=chien]")
    await page.keyboard.press("End")
    await page.wait_for_selector("#viewer[data-kind=sheet]")
    sheet = player.events("score")[-1]["sheet"]
    shown = await page.locator("#viewer-sheet [data-field^=score-]").all_inner_texts()
    assert [_number(s) for s in shown] == sheet["scores"]
    # The link is the step: a reload shows the same one, in another language too.
    await page.evaluate("() => localStorage.setItem('cardavia.lang', JSON.stringify('fr'))")
    await page.reload()
    await page.wait_for_selector("#viewer[data-kind=sheet]")
    assert "Feuille de marque" in await page.locator("#step-title").inner_text()
    await page.select_option("#lang-select", "nl")
    await page.wait_for_selector("#step-title:has-text('Scoreblad')")
    await page.screenshot(path=str(artifacts / "history-viewer-sheet-nl.png"), full_page=True)
    await page.click("a[href='#/leaderboard/0']")
    await page.wait_for_selector("#leaderboard p.muted")  # nobody rated yet: Anna played AI
    assert await page.locator("#leaderboard tbody tr").count() == 0
    await page.screenshot(path=str(artifacts / "history-leaderboard-nl.png"))
    assert not player.errors, player.errors


def _number(text: str) -> float:
    return float(text.replace("−", "-").replace("+", "").replace(",", "."))
