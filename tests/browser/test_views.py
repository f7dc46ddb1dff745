"""The rarer prompts, rendered by the page's own modules in the real browser.

A poignee needs 10 trumps among 18 cards (about one deal in sixty), so a played
deal cannot be relied on to offer one. This test feeds the table view a
``your_turn.legal`` shaped like the server's (protocol/models/) and checks what
a player would see: one offer per level, its default subset, and the choice of
another subset. Everything else is exercised against the real server elsewhere.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import NewPlayer

HAND = [
    "T2", "T3", "T5", "T6", "T7", "T9", "T10", "T12", "T13", "T15",
    "T16", "T18", "T20", "EX", "KH", "3S", "7D", "NC",
]  # fmt: skip
POIGNEES: list[dict[str, Any]] = [
    {"level": "simple", "size": 10, "cards": HAND[:10]},
    {"level": "double", "size": 13, "cards": HAND[:13]},
]
LEGAL: dict[str, Any] = {
    "seat": 0,
    "phase": "play",
    "bids": [],
    "discard": None,
    "chelem": False,
    "poignees": POIGNEES,
    "cards": HAND,
}

RENDER = """async ([hand, legal, choosing]) => {
    const game = await import('./game.js');
    const view = await import('./table.js');
    const table = game.newTable('demo', 0);
    game.applyEvent(table, 1, {kind: 'deal_started', deal_number: 1, dealer: 3});
    game.applyEvent(table, 2, {kind: 'hand', seat: 0, cards: hand});
    game.applyEvent(table, 3, {kind: 'taker', seat: 1, contract: 'garde_sans'});
    game.applyEvent(table, 4, {kind: 'chelem', seat: 1, announced: false});
    game.applyEvent(table, 5, {kind: 'turn', seat: 0, phase: 'play', deadline_ms: null});
    table.legal = legal;
    const offer = legal.poignees[1];
    const ctx = {
        lang: 'en', face: 'marseille', seen: new Map(), log: [], announce: null,
        selected: new Set(choosing ? offer.cards : []), reason: null,
        poignee: choosing ? {level: offer.level, size: offer.size} : null,
        pool: game.poigneePool(hand, legal.poignees), focus: null, pending: null,
    };
    const parts = view.tableParts(table, ctx);
    document.querySelector('#view-table').innerHTML =
        `<div id="prompt">${parts.prompt.text}</div><div id="hand">${parts.hand.text}</div>`;
    return true;
}"""


async def render(page: Any, choosing: bool) -> None:
    await page.evaluate(RENDER, [HAND, LEGAL, choosing])


@pytest.mark.timeout(60)
async def test_poignee_offers_each_level_with_its_default_subset(new_player: NewPlayer) -> None:
    player = await new_player()
    await player.open()
    await render(player.page, choosing=False)
    offers = player.page.locator("#prompt .offer")
    assert await offers.count() == 2
    texts = await offers.all_inner_texts()
    assert "Simple poignée" in texts[0] and "10 trumps, bonus 20" in texts[0]
    assert "Double poignée" in texts[1] and "13 trumps, bonus 30" in texts[1]
    for i, offer in enumerate(POIGNEES):
        shown = (
            await offers.nth(i).locator(".card").evaluate_all("els => els.map(e => e.dataset.card)")
        )
        assert shown == offer["cards"]
        assert await offers.nth(i).locator("[data-action=poignee-show]").count() == 1
        assert await offers.nth(i).locator("[data-action=poignee-pick]").count() == 1
    assert "play a card" in (await player.text("#prompt")).lower()  # declining is playing
    legal = await player.page.locator("#hand .card.legal").count()
    assert legal == len(HAND)

    # Choosing another subset: only trumps (and the Excuse) can be picked, 13 of them.
    await render(player.page, choosing=True)
    assert "13/13" in await player.text("#prompt .prompt-title")
    cards = await player.hand()
    for c in cards:
        assert c["disabled"] == (not (c["code"].startswith("T") or c["code"] == "EX")), c
        assert c["selected"] == (c["code"] in POIGNEES[1]["cards"]), c
    assert await player.page.locator("#prompt [data-action=poignee-confirm]").is_enabled()
    assert not player.errors
