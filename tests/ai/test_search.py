"""The strong bot's parts: consistent samples, the exact endgame solver, view-only decisions."""

from __future__ import annotations

import random
import time

import pytest

import ai
from ai.determinize import rebuild
from ai.knowledge import knowledge_of
from ai.solver import best_moves, minimax, solve
from ai.strong import Clock
from engine import Deal, Phase, apply_in_place, new_deal, random_action, view

EXPERT = ai.make_bot("expert")


def _deal_at(seed: int, cards_played: int, bots: list[ai.AiPlayer] | None = None) -> Deal | None:
    """A deal after bidding, discard and ``cards_played`` cards (None if it ended)."""
    rng = random.Random(seed)
    deal = new_deal(seed % 4, rng)
    while not deal.is_over:
        if deal.phase is Phase.PLAY and sum(h.bit_count() for h in deal.hands) <= 72 - cards_played:
            return deal
        seat = deal.to_act
        if bots is None:
            apply_in_place(deal, random_action(deal, rng))
        else:
            apply_in_place(deal, bots[seat].choose(view(deal, seat), rng))
    return None


@pytest.mark.parametrize("tricks_left", [1, 2, 3])
def test_solver_agrees_with_brute_force(tricks_left: int) -> None:
    checked = 0
    for seed in range(30 if tricks_left < 3 else 12):
        deal = _deal_at(seed, 72 - 4 * tricks_left + seed % 3)
        if deal is None:
            continue
        before = deal.copy()
        exact = minimax(deal)
        assert solve(deal) == exact
        moves = best_moves(deal)
        best = max(moves.values()) if deal.to_act == deal.taker else min(moves.values())
        assert best == exact
        assert deal == before  # make and unmake hand the deal back unchanged
        checked += 1
    assert checked >= 5


def test_samples_are_consistent_with_everything_the_seat_saw() -> None:
    """Every sample replays through the engine to exactly the same view."""
    for seed in range(25):
        deal = _deal_at(seed, random.Random(seed).randrange(0, 70), [EXPERT] * 4)
        if deal is None:
            continue
        seat = deal.to_act
        seen = view(deal, seat)
        k = knowledge_of(seen)
        rng = random.Random(seed)
        for _ in range(5):
            rebuilt = rebuild(seen, k, k.sample(rng))
            assert view(rebuilt, seat) == seen


def _other_world(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """The same deal for ``seat``'s eyes, with the hidden cards dealt otherwise."""
    seen = view(deal, seat)
    k = knowledge_of(seen)
    for _ in range(20):
        other = rebuild(seen, k, k.sample(rng))
        if other.hands != deal.hands:
            return other
    return other


@pytest.mark.parametrize("level", ["basic", "expert", "strong"])
def test_a_decision_depends_only_on_the_view(level: str) -> None:
    bot = ai.make_bot(level, samples=3) if level == "strong" else ai.make_bot(level)
    differing = 0
    for seed in range(12):
        deal = _deal_at(seed, 4 * (seed % 12) + seed % 4, [EXPERT] * 4)
        if deal is None:
            continue
        seat = deal.to_act
        other = _other_world(deal, seat, random.Random(seed))
        differing += other.hands != deal.hands
        assert view(other, seat) == view(deal, seat)
        first = bot.choose(view(deal, seat), random.Random(seed))
        second = bot.choose(view(other, seat), random.Random(seed))
        assert first == second
    assert differing >= 5


def test_strong_bidding_and_discard_depend_only_on_the_view() -> None:
    bot = ai.make_bot("strong", samples=4)
    for seed in range(4):
        rng = random.Random(seed)
        deal = new_deal(seed % 4, rng)
        while not deal.is_over and deal.phase in (Phase.BIDDING, Phase.DISCARD):
            seat = deal.to_act
            other = _other_world(deal, seat, rng)
            action = bot.choose(view(deal, seat), random.Random(seed))
            assert bot.choose(view(other, seat), random.Random(seed)) == action
            apply_in_place(deal, action)


def test_strong_plays_only_legal_actions_at_a_small_budget() -> None:
    bots = [ai.make_bot("strong", samples=2), EXPERT] * 2
    for seed in range(6):
        rng = random.Random(seed)
        deal = new_deal(seed % 4, rng)
        while not deal.is_over:
            seat = deal.to_act
            apply_in_place(deal, bots[seat].choose(view(deal, seat), rng))


@pytest.mark.parametrize(
    "options",
    [
        {"budget_ms": 0},
        {"budget_ms": float("nan")},
        {"budget_ms": float("inf")},
        {"bid_factor": float("nan")},
        {"bid_factor": -1.0},
        {"samples": -1},
        {"exact_tricks": -1},
    ],
    ids=repr,
)
def test_strong_rejects_a_bad_budget(options: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        ai.make_bot("strong", **options)


def test_strong_rejects_unknown_options_and_clocks() -> None:
    with pytest.raises(TypeError):
        ai.make_bot("strong", depth=3)
    with pytest.raises(ValueError, match="clock"):
        ai.make_bot("strong", clock="sundial")


def test_a_cpu_clock_does_not_count_time_spent_waiting() -> None:
    """On a busy machine the process waits for a core: the cpu clock leaves that out."""
    wall = Clock.begin(20.0, 0, "wall")
    cpu = Clock.begin(20.0, 0, "cpu")
    time.sleep(0.05)  # off the CPU, as when another process holds the core
    assert not wall.more(3)
    assert cpu.more(3)
