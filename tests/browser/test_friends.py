"""Playing with friends: a table from the lobby, two humans and two AI in two browsers,
a spectator, and a private table joined by its invitation link."""

from __future__ import annotations

import asyncio

import pytest

from .conftest import NewPlayer
from .player import Player


async def name_yourself(player: Player, name: str) -> None:
    await player.page.fill("#player-name", name)


async def seat_names(player: Player) -> list[str]:
    return list(
        await player.page.locator("#seats .seat .name").evaluate_all(
            "els => els.map(e => e.firstChild.textContent.trim())"
        )
    )


@pytest.mark.timeout(180)
async def test_two_browsers_play_a_deal_together_while_a_third_watches(
    new_player: NewPlayer,
) -> None:
    alice, bob, carol = await new_player(), await new_player(), await new_player()
    for player in (alice, bob, carol):
        await player.open()
    await name_yourself(alice, "Alice")
    await name_yourself(bob, "Bob")

    # Alice creates a public table from the lobby and sits at seat 0.
    await alice.page.fill("#create-form [name=name]", "Friday tarot")
    await alice.page.fill("#create-form [name=deals]", "2")
    await alice.page.click("#create-form [type=submit]")
    await alice.page.wait_for_selector("#centre .waiting-msg")
    link = await alice.page.locator("#invite-link").input_value()
    table_id = alice.table_id()
    assert f"#join={table_id}" in link

    # Bob sees it among the open tables and takes seat 2; Carol watches.
    await bob.click("[data-action=refresh]")
    row = bob.page.locator(f'.table-row[data-table="{table_id}"]')
    await row.wait_for()
    assert "Friday tarot" in await row.inner_text()
    await row.locator("[data-action=take-seat][data-arg$=':2']").click()
    await bob.page.wait_for_selector("#centre .waiting-msg")
    await carol.click("[data-action=refresh]")
    await carol.page.locator(f'.table-row[data-table="{table_id}"] [data-action=watch]').click()
    await carol.page.wait_for_selector("#seats .seat")

    # Alice starts: the AI takes the two empty seats.
    await alice.page.click("#prompt [data-action=start]")
    await asyncio.gather(
        alice.play_until("sheet", bid="garde"), bob.play_until("sheet", bid="garde")
    )
    await carol.page.wait_for_selector(".sheet")

    names = await seat_names(alice)
    assert names[0] == "Alice" and names[2] == "Bob"
    assert (await seat_names(bob))[:3] == ["Alice", "AI 2", "Bob"]
    assert await carol.page.locator("#hand .card").count() == 0
    assert "You are watching" in await carol.text("#prompt") or await carol.visible(".sheet")

    sheets = [await p.check_sheet_matches_server() for p in (alice, bob, carol)]
    assert sheets[0] == sheets[1] == sheets[2]
    shown = [await p.sheet_fields() for p in (alice, bob, carol)]
    for field in ("points", "contract-score", "score-0", "score-1", "score-2", "score-3"):
        assert shown[0][field] == shown[1][field] == shown[2][field]
    # Each player's record holds the same deal; only its own hand was ever sent to it.
    records = [p.events("record")[-1]["record"] for p in (alice, bob, carol)]
    assert records[0] == records[1] == records[2]
    assert [e["seat"] for e in alice.events("hand")] == [0]
    assert [e["seat"] for e in bob.events("hand")] == [2]
    assert carol.events("hand") == []

    # Between the deals each sheet counts down to the next and says whom it waits for.
    for player in (alice, bob, carol):
        assert "Next deal in" in await player.text(".sheet [data-field=next-in]")
    assert "Waiting for Alice" in await bob.text(".sheet [data-field=waiting-for]")
    assert "Waiting for Alice, Bob" in await carol.text(".sheet [data-field=waiting-for]")
    await alice.page.click(".sheet [data-action=next-deal]")
    await carol.page.wait_for_function(
        "() => document.querySelector('.sheet [data-field=waiting-for]')"
        ".innerText.endsWith('Waiting for Bob')"
    )
    assert "Waiting for Bob" in await alice.text(".sheet [data-field=waiting-for]")
    await bob.page.wait_for_selector(".sheet [data-field=waiting-for]", state="detached")
    for player in (alice, bob, carol):
        assert not player.errors


@pytest.mark.timeout(60)
async def test_a_private_table_is_joined_with_its_invitation_link(
    new_player: NewPlayer,
) -> None:
    alice, bob, eve = await new_player(), await new_player(), await new_player()
    for player in (alice, bob, eve):
        await player.open()
    await name_yourself(bob, "Bob")
    await alice.page.check("#create-form [name=private]")
    await alice.page.click("#create-form [type=submit]")
    await alice.page.wait_for_selector("#invite-link")
    link = await alice.page.locator("#invite-link").input_value()
    assert "invite=" in link
    table_id = alice.table_id()

    # Not listed in the lobby.
    await eve.click("[data-action=refresh]")
    await eve.page.wait_for_timeout(300)
    assert await eve.page.locator(f'.table-row[data-table="{table_id}"]').count() == 0

    # Bob follows the link and takes a seat; Alice sees him arrive.
    await bob.page.goto(link)
    await bob.page.wait_for_selector(".invited")
    await bob.page.click("[data-action=join-invite]")
    await bob.page.wait_for_selector("#centre .waiting-msg")
    await alice.page.wait_for_function(
        "() => document.querySelector('#seats').innerText.includes('Bob')"
    )

    # A link without the invitation code is refused, with a message.
    await eve.page.goto(link.split("&invite=")[0])
    await eve.page.wait_for_selector(".invited")
    await eve.page.click("[data-action=join-invite]")
    toast = eve.page.locator("#toast")
    await toast.wait_for(state="visible")
    assert "private" in (await toast.inner_text()).lower()
    assert await eve.page.locator("[data-action=quick-start]").count() == 1


@pytest.mark.timeout(60)
async def test_a_reload_in_the_waiting_room_keeps_the_seat_and_the_invitation(
    new_player: NewPlayer,
) -> None:
    alice = await new_player()
    await alice.open()
    await alice.page.check("#create-form [name=private]")
    await alice.page.click("#create-form [type=submit]")
    link = alice.page.locator("#invite-link")
    await link.wait_for()
    before = await link.input_value()
    await alice.page.reload()
    await alice.page.wait_for_selector("#centre .waiting-msg")
    assert await link.input_value() == before
    await alice.page.click("#prompt [data-action=start]")
    await alice.page.wait_for_selector("#prompt [data-action=bid], #seats .seat.active")
    assert not alice.errors


@pytest.mark.timeout(60)
async def test_a_table_with_a_time_limit_shows_the_countdown(new_player: NewPlayer) -> None:
    alice = await new_player()
    await alice.open()
    await alice.page.select_option("#create-form [name=turn_seconds]", "30")
    await alice.page.select_option("#create-form [name=ai_level]", "random")
    await alice.page.click("#create-form [type=submit]")
    await alice.page.wait_for_selector("#centre .waiting-msg")
    created = [f for f in alice.frames if f["type"] == "table_created"][-1]
    assert created["table"]["options"]["turn_seconds"] == 30
    assert created["table"]["options"]["ai_level"] == "random"
    await alice.page.click("#prompt [data-action=start]")
    timer = alice.page.locator("#seats .seat.me .timer")
    await timer.wait_for()
    seconds = int((await timer.inner_text()).rstrip("s"))
    assert 25 <= seconds <= 30
    assert not alice.errors
