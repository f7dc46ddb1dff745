"""The worth of every option of one decision, from the deciding seat's view: ``strong``'s search.

The same search as ``strong`` (its sampler, its rebuild through the engine,
its rollouts by the ``expert`` policy, the exact solver in the last
``ENDGAME_TRICKS`` tricks), but instead of playing the best option it keeps
the mean of every option, in points of the deciding seat's own score
(``engine.taker_result`` halves: the taker scores 1.5 times them, a
defender -0.5 times them). Every option is tried on the same samples, so the
difference between two options is measured more precisely than either value.

What ``strong`` does not search, the review does not either, and says so:
passing is worth 0 (what the other seats then bid is not played out); a bid
is valued as if it became the contract.

The budget is work, not time, so that a review is reproducible anywhere:
``budget_ms`` stands for ``budget_ms * PLAYS_PER_MS`` simulated card plays
(``PLAYS_PER_MS`` measured on one core of the 2-core machine docs/BENCHMARKS.md's
figures come from, in CPU time). A sample costs the cards its rollouts play,
``SAMPLE_COST`` more for drawing and rebuilding it, and an exact endgame
``SOLVER_COST`` per card left and option. Bids and the discard get
``BID_FACTOR`` times the budget, as ``strong``'s do.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import engine
from ai.cardset import cards_of, mask_of
from ai.determinize import rebuild
from ai.knowledge import Knowledge, knowledge_of
from ai.playout import PlayState, rollout
from ai.solver import best_moves
from ai.strong import (
    _contract_values,
    _discard_candidates,
    _fresh_state,
    _sample_with_bids,
    _state_of,
    _template,
)
from engine import Contract, Deal, TarotError, apply_in_place

from .decisions import NO_POIGNEE, discard_key

PLAYS_PER_MS = 150
SAMPLE_COST = 30
SOLVER_COST = 4
BID_FACTOR = 2.0
ENDGAME_TRICKS = 3
MIN_SAMPLES = 8
MAX_ATTEMPTS = 4000  # samples the engine refuses count too: a bound on a hopeless decision


@dataclass(slots=True)
class Work:
    """Counts simulated plays against the budget; never fewer than ``MIN_SAMPLES`` samples."""

    budget: float
    fixed: int = 0  # > 0: exactly this many samples, whatever they cost
    spent: float = 0.0
    samples: int = 0
    attempts: int = 0

    def more(self) -> bool:
        if self.attempts >= MAX_ATTEMPTS:
            return False
        if self.fixed > 0:
            return self.samples < self.fixed
        return self.samples < MIN_SAMPLES or self.spent < self.budget


@dataclass(slots=True)
class Estimate:
    """Each option's value on each sample, in the deciding seat's points."""

    values: dict[str, list[float]] = field(default_factory=dict)

    def add(self, option: str, value: float) -> None:
        self.values.setdefault(option, []).append(value)

    @property
    def samples(self) -> int:
        return min((len(v) for v in self.values.values()), default=0)

    def mean(self, option: str) -> float:
        v = self.values[option]
        return sum(v) / len(v)

    def best(self, chosen: str) -> str:
        """The option of highest mean; the chosen one on a tie."""
        top = max(self.mean(o) for o in self.values)
        if self.mean(chosen) >= top:
            return chosen
        return max(sorted(self.values), key=self.mean)

    def noise(self, a: str, b: str) -> float:
        """The standard error of ``mean(a) - mean(b)`` over the paired samples."""
        diffs = [x - y for x, y in zip(self.values[a], self.values[b], strict=True)]
        n = len(diffs)
        if n < 2:
            return 0.0
        m = sum(diffs) / n
        return float((sum((d - m) ** 2 for d in diffs) / (n - 1) / n) ** 0.5)


def estimate(
    view: engine.View, kind: str, chosen: str, budget_ms: float, seed: str, samples: int = 0
) -> Estimate:
    """Every option of ``view``'s decision of ``kind``; ``chosen`` is always among them.

    ``samples`` > 0 replaces the budget with a fixed number of samples.
    """
    rng = random.Random(seed)
    factor = BID_FACTOR if kind in ("bid", "discard") else 1.0
    work = Work(budget_ms * PLAYS_PER_MS * factor, samples)
    searches: dict[str, Callable[[engine.View, str, Work, random.Random], Estimate]] = {
        "bid": _bid,
        "discard": _discard,
        "chelem": _chelem,
        "poignee": _poignee,
        "card": _card,
    }
    return searches[kind](view, chosen, work, rng)


def seat_points(view: engine.View, halves: int) -> float:
    """A ``taker_result`` (half points per defender) as the view's seat's score."""
    return 1.5 * halves if view.seat == view.taker else -0.5 * halves


def _cards_left(deal: Deal) -> int:
    return sum(h.bit_count() for h in deal.hands)


# Card play and poignees: from the play phase, on rebuilt samples -------------


def _card(view: engine.View, chosen: str, work: Work, rng: random.Random) -> Estimate:
    moves: list[int] = list(cards_of(mask_of(view.legal.cards)))
    out = Estimate()
    k = knowledge_of(view)
    for state in _play_states(view, k, work, rng):
        endgame = 18 - len(state.deal.tricks) <= ENDGAME_TRICKS
        if endgame:
            values = best_moves(state.deal)
            work.spent += SOLVER_COST * _cards_left(state.deal) * len(moves)
        else:
            values = {}
            for card in moves:
                child = state.copy()
                child.play(card)
                values[card] = rollout(child, rng)
            work.spent += _cards_left(state.deal) * len(moves)
        for card, value in values.items():
            out.add(engine.card_code(card), seat_points(view, value))
    return out


def _poignee(view: engine.View, chosen: str, work: Work, rng: random.Random) -> Estimate:
    seat = view.seat
    assert seat is not None
    offers = {o.level.code: mask_of(o.cards) for o in view.legal.poignees}
    out = Estimate()
    k = knowledge_of(view)
    for state in _play_states(view, k, work, rng):
        for option in (NO_POIGNEE, *offers):
            child = state.copy()
            if option != NO_POIGNEE:
                child.deal.poignees[seat] = offers[option]
            out.add(option, seat_points(view, rollout(child, rng)))
        work.spent += _cards_left(state.deal) * (1 + len(offers))
    return out


def _play_states(
    view: engine.View, k: Knowledge, work: Work, rng: random.Random
) -> Iterator[PlayState]:
    """Samples of the hidden cards as play states, drawn lazily while the work allows.

    The template (the public part, rebuilt through the engine) comes from the
    first sample the rules accept; later samples only swap the hidden cards.
    """
    base: PlayState | None = None
    while work.more():
        work.attempts += 1
        work.spent += SAMPLE_COST
        hands = _sample_with_bids(k, view, rng)
        if base is None:
            base = _template(view, k, hands)
            if base is None:
                continue
        work.samples += 1
        yield _state_of(base, view, hands)


# Bidding, the discard, the chelem: before the play, on fresh samples ---------


def _bid(view: engine.View, chosen: str, work: Work, rng: random.Random) -> Estimate:
    seat = view.seat
    assert seat is not None
    allowed: list[Contract] = [c for c in view.legal.bids if c is not Contract.PASS]
    out = Estimate()
    k = knowledge_of(view)
    while work.more():
        work.attempts += 1
        work.samples += 1
        hands = _sample_with_bids(k, view, rng)
        values = _contract_values(seat, view.dealer, hands, allowed, rng)
        out.add(Contract.PASS.code, 0.0)
        for contract in allowed:
            out.add(contract.code, values[contract])
        shown = any(c.shows_chien for c in allowed)
        rollouts = shown + sum(not c.shows_chien for c in allowed)
        work.spent += SAMPLE_COST + 72 * rollouts
    return out


def _discard(view: engine.View, chosen: str, work: Work, rng: random.Random) -> Estimate:
    rule = view.legal.discard
    assert rule is not None and view.seat is not None
    hand = mask_of(view.hand)
    candidates = {discard_key(m): m for m in _discard_candidates(hand, rule)}
    candidates.setdefault(chosen, mask_of(engine.parse_cards(chosen.split())))
    out = Estimate()
    k = knowledge_of(view)
    while work.more():
        work.attempts += 1
        work.samples += 1
        hands = k.sample(rng)
        for key, cards in candidates.items():
            state = _fresh_state(view.seat, view.dealer, hands, view.contract)
            state.deal.hands[view.seat] = hand & ~cards
            state.deal.discard = cards
            out.add(key, seat_points(view, rollout(state, rng)))
        work.spent += SAMPLE_COST + 72 * len(candidates)
    return out


def _chelem(view: engine.View, chosen: str, work: Work, rng: random.Random) -> Estimate:
    seat = view.seat
    assert seat is not None
    out = Estimate()
    k = knowledge_of(view)
    while work.more():
        work.attempts += 1
        work.spent += SAMPLE_COST
        try:
            deal = rebuild(view, k, k.sample(rng))
        except TarotError:
            continue
        work.samples += 1
        for announce in (False, True):
            child = deal.copy()
            apply_in_place(child, engine.DeclareChelem(seat, announce))
            state = PlayState.from_deal(child)
            out.add("true" if announce else "false", seat_points(view, rollout(state, rng)))
        work.spent += 2 * 72
    return out
