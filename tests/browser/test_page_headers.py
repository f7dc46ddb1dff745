"""The pages' headers and the lobby's name box: over the lobby the header keeps to the
lobby's centred column (at 1920, at 1280, on a phone); the players page has the game
page's header (the brand, the way back to the lobby); a signed-in player is not asked
for a name in the lobby (the server seats the account under its own), a guest again is.
Screenshots in test-artifacts/ (header-*.png, name-box-*.png)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from playwright.async_api import Page

from server.app import App
from server.history import accounts
from server.node.archive import Archive
from server.settings import Settings

from .conftest import NewPlayer

PASSWORD = "correct horse battery"
BOX = """(sel) => { const r = document.querySelector(sel)?.getBoundingClientRect();
    return r ? [r.left, r.top, r.right, r.bottom] : null; }"""
# What makes the header look like the game page's: the bar and the brand.
LOOK = """() => {
    const bar = getComputedStyle(document.querySelector('.topbar'));
    const brand = getComputedStyle(document.querySelector('.topbar .brand'));
    return [bar.backgroundImage, bar.borderBottom, bar.position, brand.fontFamily,
            brand.color, brand.letterSpacing,
            document.querySelector('.topbar .brand use')?.getAttribute('href')];
}"""


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small argon2id parameters (still the real hash): the default costs ~1 s a hash here."""
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[App]:
    """A node with a history database, so that players can sign up."""
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    app = await App.start(Settings(port=0, next_deal_seconds=30), archive=archive)
    try:
        yield app
    finally:
        await app.stop(drain_seconds=0)


async def box(page: Page, selector: str) -> list[float]:
    found = await page.evaluate(BOX, selector)
    assert found is not None, selector
    return list(found)


@pytest.mark.parametrize("width", [1920, 1280, 390])
async def test_the_lobby_header_keeps_to_the_lobby_column(
    new_player: NewPlayer, artifacts: Path, width: int
) -> None:
    player = await new_player(width=width, height=900)
    await player.open()
    page = player.page
    await page.wait_for_selector(".lobby .hero")
    await player.screenshot(artifacts / f"header-lobby-{width}.png")
    brand, toggle = await box(page, ".topbar .brand"), await box(page, "#display-toggle")
    hero, header = await box(page, ".lobby .hero"), await box(page, ".topbar")
    assert abs(brand[0] - hero[0]) <= 1, f"{width}: brand at {brand[0]}, lobby at {hero[0]}"
    assert abs(toggle[2] - hero[2]) <= 1, f"{width}: menu at {toggle[2]}, lobby to {hero[2]}"
    assert header[3] - header[1] <= 56  # still one row in the narrower column
    # The table keeps the header's own, wider column (test_layouts checks its edges).
    await page.click("[data-action=quick-start]")
    await page.wait_for_selector("#board")
    assert await page.evaluate("document.getElementById('app').dataset.view") == "table"
    assert player.errors == []


@pytest.mark.parametrize("width", [1280, 390])
async def test_the_players_page_has_the_game_page_header(
    new_player: NewPlayer, artifacts: Path, base_url: str, width: int
) -> None:
    player = await new_player(width=width, height=800)
    page = player.page
    await player.open()
    game_look = await page.evaluate(LOOK)
    await page.goto(f"{base_url}players.html")
    await page.wait_for_selector("#account-form")
    await player.screenshot(artifacts / f"header-players-{width}.png")
    assert await page.evaluate(LOOK) == game_look
    header = await box(page, ".topbar")
    assert header[0] == 0 and header[2] == width  # the bar spans the window, as there
    assert header[3] - header[1] <= 56
    brand, panel = await box(page, ".topbar .brand"), await box(page, "#account")
    assert abs(brand[0] - panel[0]) <= 1, f"{width}: brand at {brand[0]}, page at {panel[0]}"
    lang = await box(page, "#lang-select")
    assert abs(lang[2] - panel[2]) <= 1, f"{width}: language to {lang[2]}, page to {panel[2]}"
    assert await page.get_attribute(".topbar [data-nav=leaderboard]", "aria-current") == "page"
    await page.select_option("#lang-select", "fr")
    await page.wait_for_selector(".topbar [data-nav=leaderboard]:has-text('Classement')")
    await player.screenshot(artifacts / f"header-players-{width}-fr.png")
    await page.click(".topbar [data-nav=lobby]")  # back to the lobby
    await page.wait_for_selector(".lobby .hero")
    await page.goto(f"{base_url}players.html")
    await page.click(".topbar .brand")  # the brand leads there too
    await page.wait_for_selector(".lobby .hero")
    assert player.errors == []


async def test_the_lobby_asks_a_guest_for_a_name_and_not_a_signed_in_player(
    new_player: NewPlayer, artifacts: Path, base_url: str
) -> None:
    player = await new_player()
    page = player.page
    await player.open()
    await page.wait_for_selector("#player-name")  # a guest names themself
    await page.goto(f"{base_url}players.html")
    await page.fill("#account-form [name=name]", "Anna")
    await page.fill("#account-form [name=password]", PASSWORD)
    await page.click("[data-action=sign-up]")
    await page.wait_for_selector("#signed-in:has-text('Anna')")

    await player.open()
    await page.wait_for_selector(".topbar-inner > .players-link:has-text('Anna')")
    await page.wait_for_function("() => !document.getElementById('player-name')", timeout=5000)
    await page.click("[data-action=refresh]")  # the lobby drawn again: still not asked
    await page.wait_for_timeout(300)
    assert await page.locator("#player-name").count() == 0
    await player.screenshot(artifacts / "name-box-signed-in.png")

    await page.goto(f"{base_url}players.html")
    await page.click("[data-action=sign-out]")
    await page.wait_for_selector("#account-form")
    await player.open()
    await page.wait_for_selector("#player-name")  # a guest again
    await player.screenshot(artifacts / "name-box-signed-out.png")
    assert player.errors == []
