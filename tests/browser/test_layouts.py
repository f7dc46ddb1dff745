"""The table at common screen sizes (issue 15.9): no control off-screen, the scores in
view on a laptop, the screen used on a large monitor. Screenshots go to test-artifacts/
(layout-WIDTHxHEIGHT.png) for a person to look at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import ARTIFACTS, NewPlayer
from .player import Player

OFF_SCREEN = """() => {
    const w = window.innerWidth;
    const visible = (e) => {
        const r = e.getBoundingClientRect();
        const s = getComputedStyle(e);
        return r.width > 0 && r.height > 0 && s.visibility !== 'hidden';
    };
    const controls = [...document.querySelectorAll('button, select, input, summary, a[href]')]
        .filter(visible).filter(e => !e.closest('.controls') || e.closest('.topbar.open'));
    return controls
        .map(e => [e.dataset.action || e.dataset.card || e.id || e.tagName,
                   e.getBoundingClientRect()])
        .filter(([, r]) => r.left < -1 || r.right > w + 1)
        .map(([name, r]) => `${name} ${Math.round(r.left)}..${Math.round(r.right)}`);
}"""
OVERFLOW = "() => document.getElementById('app').scrollWidth - window.innerWidth"
SET_HAND = """async (hand) => {
    const render = await import('./render.js');
    const deal = window.cardavia.app.table.deal;
    [deal.hand, deal.fromChien] = [hand, hand];  // every card badged as from the chien
    render.renderTable();
}"""
# The badges (from the chien, refused) whose middle is under another card.
HIDDEN_BADGES = """() => [...document.querySelectorAll('#hand .chien-badge, #hand .no-badge')]
    .filter(badge => {
        const r = badge.getBoundingClientRect();
        const on = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
        return on?.closest('.card') !== badge.closest('.card');
    }).map(badge => badge.closest('.card').dataset.card)"""
BOX = """(sel) => { const r = document.querySelector(sel)?.getBoundingClientRect();
    return r ? [r.left, r.top, r.right, r.bottom] : null; }"""


async def box(page: Any, selector: str) -> list[float]:
    found = await page.evaluate(BOX, selector)
    assert found is not None, selector
    return list(found)


@pytest.mark.timeout(180)
@pytest.mark.parametrize("size", [(360, 740), (1366, 768), (1920, 1080)], ids=str)
async def test_the_table_at_common_sizes_leaves_no_control_off_screen(
    new_player: NewPlayer, artifacts: Path, size: tuple[int, int]
) -> None:
    width, height = size
    player = await new_player(width=width, height=height, lang="fr")
    await player.open()
    await player.page.click("[data-action=quick-start]")
    await player.play_until(tricks=2)
    await player.screenshot(artifacts / f"layout-{width}x{height}.png")
    assert await player.page.evaluate(OFF_SCREEN) == []
    hand = await box(player.page, "#hand .hand-cards")
    assert hand[2] <= width + 1
    # Every seat's name is readable: "IA 3" is not cut to "I…" in French on a phone.
    names = await player.page.locator(".seat .name").evaluate_all(
        "els => els.map(e => [e.innerText, e.scrollWidth <= e.clientWidth + 1])"
    )
    assert all(fits for _, fits in names), names
    await check_the_header(player, width)
    if width >= 1366:
        # During play the scores and the log are on screen, not below the fold.
        for section in ("[data-section=scores]", "#info .info-actions"):
            top = (await box(player.page, section))[1]
            assert top < height, f"{section} starts at {top:.0f} px, below {height}"
        # The hand is not capped small on a large screen.
        card = await box(player.page, "#hand .card")
        assert card[2] - card[0] >= (96 if width >= 1920 else 70), card
    if width == 1366:
        # A 1280 px laptop, the same table: the header is one row there too.
        await player.page.set_viewport_size({"width": 1280, "height": 800})
        await check_the_header(player, 1280)
    assert player.errors == []


async def check_the_header(player: Player, width: int) -> None:
    """One row, the settings folded in a menu that opens on the screen, and on a desktop
    the header's edges are the table's (the brand over the board, the toggle over the
    side panel's edge)."""
    page = player.page
    header = await box(page, ".topbar")
    assert header[3] - header[1] <= (56 if width >= 1280 else 50), f"{width}: {header}"
    assert not await player.visible("#setting-sound")
    await player.settings()
    menu = await box(page, "#controls")
    assert menu[1] >= header[3] - 1 and menu[3] <= page.viewport_size["height"]  # type: ignore[index]
    assert await page.evaluate(OFF_SCREEN) == []
    await player.screenshot(ARTIFACTS / f"settings-{width}.png")
    await page.keyboard.press("Escape")
    assert not await player.visible("#setting-sound")
    if width >= 1280:
        brand, toggle = await box(page, ".brand"), await box(page, "#display-toggle")
        board, info = await box(page, ".board-wrap"), await box(page, "#info")
        assert abs(brand[0] - board[0]) <= 1, f"{width}: brand at {brand[0]}, board at {board[0]}"
        assert abs(toggle[2] - info[2]) <= 1, f"{width}: menu at {toggle[2]}, panel at {info[2]}"


# Per card of the hand: the width (px) of its columns that are in view from its top edge
# (its index) down at least 40 px, where a tap lands on this card and no other.
TAP_TARGETS = """() => [...document.querySelectorAll('#hand .card')].map(card => {
    const r = card.getBoundingClientRect();
    let wide = 0;
    for (let x = r.left + 1; x < r.right - 1; x += 2) {
        let y = r.top + 1;
        while (y < r.bottom && document.elementFromPoint(x, y)?.closest('.card') === card) y += 2;
        if (y - r.top >= 40) wide += 2;
    }
    return [card.dataset.card, wide];
})"""
SUITS = [f"{rank}{suit}" for suit in "SHDC" for rank in [*map(str, range(1, 11)), *"JNQK"]]
DECK = [*SUITS, *(f"T{n}" for n in range(1, 22)), "EX"]


async def check_tap_targets(player: Player, artifacts: Path, name: str) -> None:
    page = player.page
    await page.mouse.move(0, 0)  # no card lifted by the pointer over it
    await page.evaluate("document.getElementById('hand').scrollIntoView({block: 'center'})")
    await player.screenshot(artifacts / f"{name}.png")
    assert await page.evaluate(OVERFLOW) <= 0, name
    targets = await page.evaluate(TAP_TARGETS)
    assert len(targets) >= 12, targets
    narrow = [(code, wide) for code, wide in targets if wide < 28]
    assert narrow == [], f"{name}: cards with less than 28 x 40 px to tap: {narrow}"


@pytest.mark.timeout(120)
async def test_a_phone_hand_shows_every_card_readable_and_big_enough_to_tap(
    new_player: NewPlayer, artifacts: Path
) -> None:
    """On a phone each card showed a 17-20 px strip (issue 15.6): the hand goes in rows,
    every card showing its index and at least 28 x 40 px to tap, nothing past the edge;
    on a tablet the cards were as small as on a phone (48 px)."""
    player = await new_player(width=360, height=740, lang="fr")
    await player.open()
    await player.page.click("[data-action=quick-start]")
    await player.play_until(tricks=1, bid="pass")
    await check_tap_targets(player, artifacts, "hand-360x740")
    await player.page.set_viewport_size({"width": 390, "height": 844})
    await check_tap_targets(player, artifacts, "hand-390x844")
    # A tablet: the table has the whole width, and the hand's cards are not phone-small.
    await player.page.set_viewport_size({"width": 768, "height": 1024})
    await check_tap_targets(player, artifacts, "hand-768x1024")
    await check_the_header(player, 768)
    card = await box(player.page, "#hand .card")
    assert card[2] - card[0] >= 60, card
    # The taker's 24 cards at the discard, in the page's own picture redrawn by its renderer.
    hand = await player.page.evaluate("() => window.cardavia.app.table.deal.hand")
    extra = [code for code in DECK if code not in hand][: 24 - len(hand)]
    await player.page.evaluate(SET_HAND, [*hand, *extra])
    await player.page.set_viewport_size({"width": 360, "height": 740})
    assert len(await player.hand()) == 24
    await check_tap_targets(player, artifacts, "hand-360x740-24-cards")
    # The taker sees which cards came from the chien in every row.
    assert await player.page.locator("#hand .chien-badge").count() == 24
    assert await player.page.evaluate(HIDDEN_BADGES) == []
    assert player.errors == []
