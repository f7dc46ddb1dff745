"""A cancelled deal in the browser: the page says why, and the deal dealt again in
its place is still "Deal 1 of 3" (a cancelled deal does not count toward the
table's deals). The first deal is rigged to a petit sec by its seed alone."""

from __future__ import annotations

import itertools

import pytest

from ..deal_seeds import deal_from, ordinary, petit_sec, where
from .conftest import NewPlayer


@pytest.mark.timeout(120)
async def test_a_petit_sec_is_shown_and_the_deal_dealt_again_keeps_its_number(
    new_player: NewPlayer, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = itertools.islice(where("petit-sec", petit_sec), 1)
    deal_from(monkeypatch, itertools.chain(first, where("ordinary", ordinary)))
    player = await new_player()
    await player.open()
    await player.page.select_option("#multi-deals", "3")
    await player.page.click("[data-action=multi-start]")
    # Both lines at once, in one wait: the message stays 0.1 s at this speed, so a second
    # read may already find the deal dealt again ("Bidding · AI 3 to play").
    await player.page.wait_for_selector(
        ".centre-msg:has-text('Petit sec: the deal is cancelled.'):has-text('A new deal follows.')"
    )
    assert "Deal 1 of 3" in await player.text("#info")
    # The deal dealt in its place, once the page has shown the cancellation.
    await player.page.wait_for_function(
        "() => !(document.querySelector('.centre-msg')?.innerText ?? '').includes('Petit sec')"
    )
    await player.page.wait_for_selector("#hand .card")
    assert "Deal 1 of 3" in await player.text("#info")
    starts = player.events("deal_started")
    assert [s["deal_number"] for s in starts] == [1, 1]
    assert starts[1]["dealer"] == (starts[0]["dealer"] + 1) % 4
    (score,) = player.events("score")
    assert (score["deal_number"], score["sheet"]["status"]) == (1, "cancelled")
    assert not player.events("between_deals")  # dealt again at once, nobody waited for
    # The cancelled deal's record is not offered for the deal that has its number now.
    assert await player.page.evaluate("() => window.cardavia.app.table.records[1] === undefined")
    # The log says the deal was dealt again, and no line twice (issue 27.12).
    log = await player.page.locator("#info [data-section=log] li").all_inner_texts()
    dealt = [line for line in log if line.startswith("Deal 1")]
    assert dealt[0].startswith("Deal 1: ") and dealt[1].startswith("Deal 1, dealt again: "), log
    assert len(set(log)) == len(log), log
    assert player.errors == []


SNAPSHOT_OF_A_REDEAL = """async () => {
    const game = await import('./game.js');
    const table = game.newTable('demo', 0);
    const cancelled = {format: 'tarot-record/1', dealer: 0, hands: [], chien: [], bids: [0]};
    game.applyEvent(table, 7, {kind: 'record', deal_number: 1, record: cancelled});
    const view = {
        seat: 0, deal_number: 1, dealer: 1, phase: 'bidding', to_act: 2, hand: [],
        hand_sizes: [18, 18, 18, 18], bids: [], taker: null, contract: null, chien: null,
        discard: null, discard_trumps: [], chelem: false, poignees: [], trick: null,
        tricks: [], points: [0, 0], tricks_won: [0, 0, 0, 0], legal: null, sheet: null,
    };
    const summary = {table_id: 'demo', options: {deals: 3}, seats: [], status: 'playing',
                     deal_number: 1, totals: [0, 0, 0, 0]};
    game.applySnapshot(table, {table_id: 'demo', seq: 30, table: summary, view});
    return [table.records[1] === undefined, table.deal.dealer];
}"""


async def test_a_snapshot_of_the_deal_dealt_again_drops_the_cancelled_ones_record(
    new_player: NewPlayer,
) -> None:
    """A page that missed the new deal's start (a reconnection past the log) learns of it
    from a snapshot: same number, another dealer, so the record it kept is not this deal's."""
    player = await new_player()
    await player.open()
    assert await player.page.evaluate(SNAPSHOT_OF_A_REDEAL) == [True, 1]
