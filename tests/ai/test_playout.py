"""The search's play state is an engine deal: it follows the engine to the same score."""

from __future__ import annotations

import random

import pytest

from ai.playout import PlayState, final_value, policy_move, rollout
from ai.solver import solve
from ai.strong import StrongBot
from engine import Deal, Phase, apply_in_place, new_deal, random_action, score


def _into_play(seed: int, extra_cards: int) -> Deal | None:
    rng = random.Random(seed)
    deal = new_deal(seed % 4, rng)
    while not deal.is_over and deal.phase is not Phase.PLAY:
        apply_in_place(deal, random_action(deal, rng))
    for _ in range(extra_cards):
        if deal.is_over:
            break
        apply_in_place(deal, random_action(deal, rng))
    return None if deal.is_over else deal


def test_play_state_follows_the_engine_to_the_same_score() -> None:
    checked = 0
    for seed in range(400):
        rng = random.Random(seed)
        deal = _into_play(seed, rng.randrange(70))
        if deal is None:
            continue
        state = PlayState.from_deal(deal)
        while not deal.is_over:
            assert deal.hands == state.deal.hands and deal.to_act == state.deal.to_act
            assert state.legal() & ~deal.hands[deal.to_act] == 0
            action = random_action(deal, rng)
            apply_in_place(deal, action)
            if hasattr(action, "card"):
                state.play(action.card)
        assert state.is_over
        assert final_value(state) == round(2 * score(deal).per_defender)
        checked += 1
    assert checked > 200


def test_rollout_ends_the_deal() -> None:
    deal = _into_play(1, 5)
    assert deal is not None
    state = PlayState.from_deal(deal)
    value = rollout(state, random.Random(0))
    assert state.is_over
    assert value == final_value(state)


def test_rollout_solves_its_last_tricks_exactly() -> None:
    for seed in range(6):
        deal = _into_play(seed, 4 * seed)
        if deal is None:
            continue
        played = PlayState.from_deal(deal)
        policy = played.copy()
        while 18 - len(policy.deal.tricks) > 2 or policy.deal.trick:
            policy.play(policy_move(policy))
        assert rollout(played, random.Random(0), exact_tricks=2) == solve(policy.deal)


def test_exact_rollout_ends_are_off_unless_asked_for() -> None:
    # Measured: at 400 ms they cost more samples than they are worth (ai/strong.py).
    assert StrongBot(budget_ms=400).exact_tricks == 0
    assert StrongBot(budget_ms=400, exact_tricks=1).exact_tricks == 1
    with pytest.raises(ValueError, match="exact_tricks"):
        StrongBot(exact_tricks=-1)
