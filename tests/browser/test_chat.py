"""The table chat in the browser (docs/PROTOCOL.md, section 17), at 1366x768 and on a
phone (390x844): presets said in each reader's language (EN, FR, NL), free text only
outside a deal, a hostile text shown as text, a link refused, a mute from a line's menu
and its unmute; the lobby's online count and the table's address in the address bar.
Screenshots in test-artifacts/chat-*.png."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.app import App
from server.settings import Settings

from .conftest import NewPlayer
from .player import Player

HOSTILE = '<img src=x onerror="document.title=1"><b>hi</b>'


@pytest.fixture
async def server() -> AsyncIterator[App]:
    """Guests write at once here (the default asks 3 played deals: docs/DEPLOY.md, Chat)."""
    app = await App.start(Settings(port=0, next_deal_seconds=30, chat_guest_deals=0))
    try:
        yield app
    finally:
        await app.stop(drain_seconds=0)


async def chat_lines(player: Player) -> list[str]:
    return list(
        await player.page.locator("#chat .chat-line").evaluate_all(
            "els => els.map(e => e.querySelector('.chat-who').textContent + ': '"
            " + e.querySelector('.chat-said').textContent)"
        )
    )


async def open_chat(player: Player) -> None:
    if await player.page.locator("#chat[data-open=false]").count():
        await player.page.click("#chat .chat-toggle")


async def said(player: Player, line: str) -> None:
    await player.page.wait_for_function(
        "line => [...document.querySelectorAll('#chat .chat-line')].some(e =>"
        " (e.querySelector('.chat-who').textContent + ': '"
        " + e.querySelector('.chat-said').textContent) === line)",
        arg=line,
    )


@pytest.mark.timeout(180)
async def test_chat_presets_in_three_languages_text_between_deals_and_a_mute(
    new_player: NewPlayer, artifacts: Path
) -> None:
    alice = await new_player(1366, 768)
    bob = await new_player(390, 844, lang="fr")
    carol = await new_player(390, 844, lang="nl")
    for player in (alice, bob, carol):
        await player.open()
    assert "online" in await alice.text("[data-field=online]")  # the lobby's first screen
    await alice.page.fill("#player-name", "Alice")
    await bob.page.fill("#player-name", "Bob")
    await alice.page.fill("#create-form [name=deals]", "2")
    await alice.page.click("#create-form [type=submit]")
    await alice.page.wait_for_selector("#chat .chat-presets button")
    table_id = alice.table_id()
    assert f"#join={table_id}" in alice.page.url  # the table's address, to share or reload
    await bob.click("[data-action=refresh]")
    row = bob.page.locator(f'.table-row[data-table="{table_id}"]')
    await row.locator("[data-action=take-seat][data-arg$=':2']").click()
    await bob.page.wait_for_selector("#centre .waiting-msg")
    await carol.click("[data-action=refresh]")
    await carol.page.locator(f'.table-row[data-table="{table_id}"] [data-action=watch]').click()
    await carol.page.wait_for_selector("#seats .seat")

    # Before the start free text goes; a hostile one is shown as text, a link refused.
    await open_chat(bob)
    await bob.page.fill("#chat .chat-input", HOSTILE)
    await bob.page.press("#chat .chat-input", "Enter")
    await said(alice, f"Bob: {HOSTILE}")
    assert await alice.page.locator("#chat img, #chat b").count() == 0
    assert await alice.page.title() != "1"
    await bob.page.fill("#chat .chat-input", "come to www.evil.example.com")
    await bob.page.press("#chat .chat-input", "Enter")
    await bob.page.wait_for_selector("#toast:not([hidden])")
    assert "liens" in (await bob.text("#toast")).lower()  # said in French

    # Mid-deal: presets only, each said in its reader's language.
    await alice.page.click("#prompt [data-action=start]")
    await alice.page.wait_for_selector("#chat .chat-note:not(:empty)")
    assert not await alice.visible("#chat .chat-form")
    await alice.page.click("#chat .chat-presets [data-preset=good_luck]")
    await said(alice, "Alice: Good luck!")
    await said(bob, "Alice: Bonne chance !")
    await open_chat(carol)
    await said(carol, "Alice: Succes!")
    await alice.screenshot(artifacts / "chat-1366x768.png")
    await bob.screenshot(artifacts / "chat-390x844.png")

    # Alice mutes Bob from his line's menu: his next phrase never shows on her page.
    line = alice.page.locator("#chat .chat-line[data-name=Bob]").first
    await line.locator(".chat-more").click()
    await line.locator(".chat-menu button").first.click()
    assert await alice.page.locator("#chat .chat-line[data-name=Bob]").count() == 0
    await bob.page.click("#chat .chat-presets [data-preset=thanks]")
    await said(carol, "Bob: Bedankt!")
    await said(bob, "Bob: Merci !")
    assert "Bob: Thanks!" not in await chat_lines(alice)
    # She unmutes him from the chat's list of muted names: his next phrase shows again.
    unmute = alice.page.locator("#chat .chat-muted button")
    assert await unmute.count() == 1 and "Bob" in await unmute.first.inner_text()
    await unmute.first.click()
    assert await alice.page.locator("#chat .chat-muted button").count() == 0
    await bob.page.click("#chat .chat-presets [data-preset=well_played]")
    await said(alice, "Bob: Well played!")
    # Carol reloads: the address bar names the table, and she watches it again.
    assert f"#watch={table_id}" in carol.page.url
    await carol.page.reload()
    await carol.page.wait_for_selector("#conn[data-status=online]")
    await carol.page.wait_for_selector("#seats .seat")
    assert carol.page.url.endswith(f"#watch={table_id}") or f"watch={table_id}" in carol.page.url
    assert await carol.page.locator("#hand .card").count() == 0
    assert not alice.errors and not bob.errors and not carol.errors
