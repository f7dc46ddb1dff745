"""Around a table in the browser (issue 23.3): the sheet after a rated deal shows each
rated player's rating change; at a finished table of two humans, "Rematch" takes both to
a new table (each accepts). Screenshots in test-artifacts/rematch-*.png, sheet-rating-*.png."""

from __future__ import annotations

import asyncio
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
from .player import Player

PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[App]:
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    app = await App.start(Settings(port=0, next_deal_seconds=30), archive=archive)
    try:
        yield app
    finally:
        await app.stop(drain_seconds=0)


async def signed_up(player: Player, base_url: str, name: str) -> None:
    page = player.page
    await page.goto(f"{base_url}players.html")
    await page.fill("#account-form [name=name]", name)
    await page.fill("#account-form [name=password]", PASSWORD)
    await page.click("[data-action=sign-up]")
    await page.wait_for_selector(f"#signed-in:has-text('{name}')")
    await player.open()


@pytest.mark.timeout(180)
@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
async def test_the_sheet_shows_the_rating_change_of_a_rated_deal(
    new_player: NewPlayer,
    base_url: str,
    artifacts: Path,
    monkeypatch: pytest.MonkeyPatch,
    width: int,
    height: int,
) -> None:
    """Two accounts with two AI: only humans are compared (docs/RATINGS.md), so Anna
    plays Bruno; the sheet shows her change (against AI alone a deal is unrated)."""
    deal_from(monkeypatch, where("rating-sheet", ordinary))  # no petit sec
    anna, bruno = await new_player(width, height), await new_player(1366, 768)
    await signed_up(anna, base_url, "Anna")
    await signed_up(bruno, base_url, "Bruno")
    await anna.page.fill("#create-form [name=deals]", "1")
    await anna.page.click("#create-form [type=submit]")
    await anna.page.wait_for_selector("#centre .waiting-msg")
    table_id = anna.table_id()
    await bruno.click("[data-action=refresh]")
    row = bruno.page.locator(f'.table-row[data-table="{table_id}"]')
    await row.locator("[data-action=take-seat][data-arg$=':2']").click()
    await bruno.page.wait_for_selector("#centre .waiting-msg")
    await anna.page.click("#prompt [data-action=start]")
    await asyncio.gather(anna.play_until("sheet"), bruno.play_until("sheet"))
    await anna.page.wait_for_selector(".sheet [data-field=ratings]")
    changes = {c["seat"]: c for c in anna.events("ratings")[-1]["changes"]}
    assert set(changes) == {0, 2} and changes[2]["name"] == "Bruno"
    change = changes[0]
    assert change["name"] == "Anna"
    shown = await anna.text(".sheet [data-field=rating-0]")
    assert shown == f"{round(change['before'])} → {round(change['after'])}"
    await anna.screenshot(artifacts / f"sheet-rating-{width}x{height}.png")
    assert not anna.errors


@pytest.mark.timeout(240)
async def test_rematch_takes_both_humans_to_a_new_table(
    new_player: NewPlayer, artifacts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_from(monkeypatch, where("rematch-browser", ordinary))
    alice, bob = await new_player(1366, 768), await new_player(390, 844)
    for player, name in ((alice, "Alice"), (bob, "Bob")):
        await player.open()
        await player.page.fill("#player-name", name)
    await alice.page.fill("#create-form [name=deals]", "1")
    await alice.page.click("#create-form [type=submit]")
    await alice.page.wait_for_selector("#centre .waiting-msg")
    table_id = alice.table_id()
    await bob.click("[data-action=refresh]")
    row = bob.page.locator(f'.table-row[data-table="{table_id}"]')
    await row.locator("[data-action=take-seat][data-arg$=':2']").click()
    await bob.page.wait_for_selector("#centre .waiting-msg")
    await alice.page.click("#prompt [data-action=start]")
    await asyncio.gather(alice.play_until("sheet"), bob.play_until("sheet"))
    await alice.page.wait_for_selector(".sheet [data-action=rematch]")
    await alice.page.click(".sheet [data-action=rematch]")
    await alice.page.wait_for_function(
        "old => window.cardavia.app.table && window.cardavia.app.table.tableId !== old",
        arg=table_id,
    )
    # Bob is told Alice accepted; he accepts too, and the new table starts with both.
    await bob.page.wait_for_selector(".sheet [data-field=rematch-status]:has-text('Alice')")
    await bob.screenshot(artifacts / "rematch-offer-390x844.png")
    await bob.page.click(".sheet [data-action=rematch]")
    new_id = await alice.page.evaluate("() => window.cardavia.app.table.tableId")
    await bob.page.wait_for_function("id => window.cardavia.app.table?.tableId === id", arg=new_id)
    for player in (alice, bob):
        await player.page.wait_for_selector("#hand .card")
        assert f"={new_id}" in player.page.url
    names = await alice.page.locator("#seats .seat .name").evaluate_all(
        "els => els.map(e => e.firstChild.textContent.trim())"
    )
    assert "Bob" in names
    await alice.screenshot(artifacts / "rematch-new-table-1366x768.png")
    assert not alice.errors and not bob.errors
