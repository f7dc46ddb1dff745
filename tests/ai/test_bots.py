"""Every bot: legal actions only, decisions from the seat's view only, ``make_bot``."""

from __future__ import annotations

import random

import pytest

import ai
import engine
from ai.cardset import PETIT, TRUMPS
from ai.expert import Table, play
from engine import apply_in_place, new_deal, view


def play_deal(bots: list[ai.AiPlayer], seed: int) -> engine.Deal:
    """A whole deal; ``apply_in_place`` refuses (raises) any illegal action."""
    rng = random.Random(seed)
    deal = new_deal(seed % 4, rng)
    while not deal.is_over:
        seat = deal.to_act
        apply_in_place(deal, bots[seat].choose(view(deal, seat), rng))
    return deal


@pytest.mark.parametrize("level", ["random", "basic", "expert"])
def test_cheap_bots_only_play_legal_actions(level: str) -> None:
    bots = [ai.make_bot(level)] * 4
    for seed in range(150):
        deal = play_deal(bots, seed)
        assert sum(engine.score(deal).scores) == 0


def test_make_bot_knows_every_level() -> None:
    for level in ai.LEVELS:
        bot = ai.make_bot(level)
        assert isinstance(bot, ai.AiPlayer)


def test_make_bot_rejects_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown bot level"):
        ai.make_bot("grandmaster")


def test_expert_keeps_the_petit_for_the_last_trick_when_it_is_sure_to_win_it() -> None:
    # Seat 0, the taker, leads with T1 KS QS; no trump is left outside its hand.
    hand = 1 << PETIT | 1 << 35 | 1 << 34
    table = Table(0, 0, hand, hand, [], 0, (1 << 36) - 1 & ~TRUMPS & ~hand, [16, 16, 16, 16])
    assert play(table) != PETIT
    last_two = 1 << PETIT | 1 << 35
    assert play(Table(0, 0, last_two, last_two, [], 0, 0, [16, 16, 16, 16])) == 35
