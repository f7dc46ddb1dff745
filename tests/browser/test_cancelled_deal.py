"""A cancelled deal in the browser: the page says why, and the deal dealt again in
its place is still "Deal 1 of 3" (a cancelled deal does not count toward the
table's deals). The first deal is rigged to a petit sec by its seed alone."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pytest

import engine
from server import transitions

from .conftest import NewPlayer


def seeds_petit_sec_first() -> Iterator[str]:
    """A seed that deals a petit sec whoever deals, then seeds of ordinary deals."""

    def cancelled(seed: str) -> bool:
        return all(engine.new_deal(dealer, bytes.fromhex(seed)).is_over for dealer in range(4))

    candidates = (hashlib.sha256(f"petit-sec-{i}".encode()).hexdigest()[:32] for i in range(10**6))
    yield next(seed for seed in candidates if cancelled(seed))
    yield from (seed for seed in candidates if not cancelled(seed))


@pytest.mark.timeout(120)
async def test_a_petit_sec_is_shown_and_the_deal_dealt_again_keeps_its_number(
    new_player: NewPlayer, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds = seeds_petit_sec_first()
    monkeypatch.setattr(transitions, "new_seed", lambda: next(seeds))
    player = await new_player()
    await player.open()
    await player.page.select_option("#multi-deals", "3")
    await player.page.click("[data-action=multi-start]")
    await player.page.wait_for_selector(".centre-msg:has-text('Petit sec: the deal is cancelled.')")
    assert "A new deal follows." in await player.text(".centre-msg")
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
    assert player.errors == []
