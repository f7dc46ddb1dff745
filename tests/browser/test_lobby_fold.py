"""The lobby and the sign-in form as a laptop shows them (issue 27.12): the open tables
are above the fold at 1366x768 (a guest, with the name field), and the password field
looks like the name field."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import NewPlayer

LOOK = """el => { const s = getComputedStyle(el);
    return [s.backgroundColor, s.color, s.borderTopColor, s.borderTopWidth, s.borderRadius,
            s.paddingLeft, s.fontSize]; }"""


@pytest.mark.timeout(90)
async def test_the_open_tables_are_above_the_fold_of_a_laptop(
    new_player: NewPlayer, artifacts: Path
) -> None:
    host = await new_player()
    await host.open()
    await host.page.fill("#create-form [name=name]", "Friday tarot")
    await host.page.click("#create-form [type=submit]")
    await host.page.wait_for_selector("#centre .waiting-msg")
    guest = await new_player(1366, 768)
    await guest.open()
    await guest.click("[data-action=refresh]")
    row = guest.page.locator(".open-tables .table-row").first
    await row.wait_for()
    box = await row.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 768, box
    assert await guest.visible("#player-name")  # a guest still names themself
    await guest.screenshot(artifacts / "lobby-fold-1366.png")
    phone = await new_player(390, 844)
    await phone.open()
    # The lobby draws its tables after the page opens: read both boxes once they show
    # (under CI load the list was not there yet, and its box was None).
    for part in ("#player-name", ".open-tables"):
        await phone.page.locator(part).first.wait_for(state="visible")
    name = await phone.page.locator("#player-name").bounding_box()
    tables = await phone.page.locator(".open-tables").bounding_box()
    assert name and tables and name["y"] < tables["y"]  # on a phone the name comes first
    await phone.screenshot(artifacts / "lobby-fold-390.png")


async def test_the_password_field_looks_like_the_name_field(
    new_player: NewPlayer, base_url: str
) -> None:
    player = await new_player(1366, 768)
    await player.page.goto(f"{base_url}players.html")
    await player.page.wait_for_selector("#account-form")
    name = await player.page.locator("#account-form [name=name]").evaluate(LOOK)
    password = await player.page.locator("#account-form [name=password]").evaluate(LOOK)
    assert password == name
