"""``strong``: determinized search (perfect-information Monte Carlo) under a time budget.

Every decision samples the hidden cards consistently with all the seat knows
(``knowledge``: cards seen, voids and trump caps shown, the public chien and
discard trumps, shown poignees; bids weigh the sample by rejection: a seat
that passed rarely holds a prise hand). Each sample becomes engine ``Deal``s
(``determinize.rebuild``: ``deal_from_hands`` plus the history replayed);
search then plays on copies of that ``Deal`` (``playout.PlayState``) with the
engine's own ``play_card`` and ``taker_result``.

- Card play: for each sample, every legal card is tried and the deal played
  out by the ``expert`` policy for all four seats; in the last
  ``endgame_tricks`` tricks the sample is solved exactly (alpha-beta with a
  transposition table, ``solver``). The card with the best mean result for
  the seat's side is played. The same samples serve every card (common random
  numbers), so differences between cards are measured precisely.
- More time buys more samples. Solving each rollout's last tricks exactly
  (``exact_tricks``, off by default) was tried as a better use of a large
  budget and measured worse: at 400 ms it leaves ~1.7x the samples of 100 ms
  where plain rollouts leave ~4x, and 400 ms with it beat 100 ms by only
  +0.8 [-7.8, +9.2] over 79 deals, against +3.71 [+1.13, +6.49] over 662
  deals without it (docs/BENCHMARKS.md, "AI").
- Bidding: each contract it may bid is played out on the samples (the chien
  taken and discarded by the expert's rule, or left for garde sans / contre);
  it bids the contract with the best mean score if that beats passing (0).
- Discard: a few candidate discards (the expert's, the basic one, voids in
  each suit, the most points) are played out on the same samples; the best
  mean wins.
- Poignee, chelem: the expert's rules.

The budget is ``budget_ms`` per decision (``fast=True``: 40 ms); bidding and
the discard get ``bid_factor`` times more. ``clock="wall"`` (the default)
counts real time, what a player waits; ``clock="cpu"`` counts the process's
CPU time, so that a bot plays as well on a busy machine as on a quiet one
(the arena's long matches run beside other work). ``samples`` > 0 replaces the
clock with a fixed number of samples: decisions then depend only on the view
and the rng. More time, more samples: a better estimate of each card's worth.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import engine
from engine import Contract, Deal, Phase, TarotError, discard_rule, poignee_offers, taker_result

from . import basic, expert
from .cardset import HALF_POINTS, KINGS, SUIT_MASKS, TRUMPS, cards_of, mask_of
from .determinize import rebuild
from .knowledge import PILE, Knowledge, knowledge_of
from .playout import PlayState, rollout
from .solver import best_moves

FAST_MS = 40.0
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


@dataclass(slots=True)
class Clock:
    """Stops before a sample that would likely end past the deadline."""

    start: float
    deadline: float
    samples: int  # > 0: stop after this many samples instead of at the deadline
    now: Callable[[], float]
    minimum: int = 3

    @classmethod
    def begin(cls, budget_ms: float, samples: int, kind: str = "wall") -> Clock:
        now = CLOCKS[kind]
        start = now()
        return cls(start, start + budget_ms / 1000, samples, now)

    def more(self, done: int) -> bool:
        if self.samples > 0:
            return done < self.samples
        if done < self.minimum:
            return True
        now = self.now()
        return now + (now - self.start) / done < self.deadline


@dataclass(slots=True)
class StrongBot:
    name: str = "strong"
    budget_ms: float = 150.0
    fast: bool = False
    samples: int = 0
    endgame_tricks: int = 3
    bid_factor: float = 2.0
    exact_tricks: int = 0  # solved at the end of each card-play rollout (see the docstring)
    clock: str = "wall"  # or "cpu": see the module docstring

    def __post_init__(self) -> None:
        # "not 0 < x < inf" and not "x <= 0": NaN would pass that, and then think forever.
        if not (0 < self.budget_ms < math.inf and 0 < self.bid_factor < math.inf):
            raise ValueError("budget_ms and bid_factor must be positive finite numbers")
        if self.endgame_tricks < 0 or self.exact_tricks < 0 or self.samples < 0:
            raise ValueError("samples, endgame_tricks and exact_tricks must be >= 0")
        if self.clock not in CLOCKS:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, not {self.clock!r}")

    @property
    def budget(self) -> float:
        return min(self.budget_ms, FAST_MS) if self.fast else self.budget_ms

    def choose(self, view: engine.View, rng: random.Random) -> engine.Action:
        seat = view.seat
        legal = view.legal
        if seat is None or not legal:
            raise ValueError("it is not this seat's turn")
        if legal.phase is Phase.BIDDING:
            return engine.Bid(seat, self._bid(view, rng))
        if legal.discard is not None:
            return engine.Discard(seat, self._discard(view, rng))
        if legal.phase is Phase.CHELEM or legal.poignees:
            return expert.ExpertBot().choose(view, rng)
        return engine.PLAYS[seat][self._play(view, rng)]

    # Card play -------------------------------------------------------------

    def _play(self, view: engine.View, rng: random.Random) -> int:
        legal = mask_of(view.legal.cards)
        if legal & (legal - 1) == 0:
            return cards_of(legal)[0]
        k = knowledge_of(view)
        clock = Clock.begin(self.budget, self.samples, self.clock)
        moves: list[int] = list(cards_of(legal))
        totals = dict.fromkeys(moves, 0)
        base: PlayState | None = None
        sign = 1 if view.seat == view.taker else -1
        done = 0
        while clock.more(done):
            hands = _sample_with_bids(k, view, rng)
            if base is None:
                base = _template(view, k, hands)
                if base is None:
                    done += 1
                    continue
            state = _state_of(base, view, hands)
            for card, value in self._values(state, moves, rng).items():
                totals[card] += sign * value
            done += 1
        if base is None:  # pragma: no cover - every sample refused: fall back on the rules
            return expert.play_from_view(view)
        return max(moves, key=lambda c: (totals[c], -c))

    def _values(self, state: PlayState, moves: list[int], rng: random.Random) -> dict[int, int]:
        if 18 - len(state.deal.tricks) <= self.endgame_tricks:
            return best_moves(state.deal)
        out = {}
        for card in moves:
            child = state.copy()
            child.play(card)
            out[card] = rollout(child, rng, exact_tricks=self.exact_tricks)
        return out

    # Bidding ---------------------------------------------------------------

    def _bid(self, view: engine.View, rng: random.Random) -> Contract:
        allowed: list[Contract] = [c for c in view.legal.bids if c is not Contract.PASS]
        if not allowed:
            return Contract.PASS
        seat = view.seat
        assert seat is not None
        k = knowledge_of(view)
        clock = Clock.begin(self.budget * self.bid_factor, self.samples, self.clock)
        totals: dict[Contract, float] = dict.fromkeys(allowed, 0.0)
        done = 0
        while clock.more(done):
            hands = _sample_with_bids(k, view, rng)
            for contract, value in _contract_values(seat, view.dealer, hands, allowed, rng).items():
                totals[contract] += value
            done += 1
        best = max(allowed, key=lambda c: totals[c])
        return best if totals[best] > 0 else Contract.PASS

    # Discard ---------------------------------------------------------------

    def _discard(self, view: engine.View, rng: random.Random) -> frozenset[engine.Card]:
        rule = view.legal.discard
        assert rule is not None and view.seat is not None
        hand = mask_of(view.hand)
        candidates = _discard_candidates(hand, rule)
        if len(candidates) == 1:
            return _cards(candidates[0])
        k = knowledge_of(view)
        clock = Clock.begin(self.budget * self.bid_factor, self.samples, self.clock)
        totals = [0] * len(candidates)
        done = 0
        while clock.more(done):
            hands = k.sample(rng)
            for i, cand in enumerate(candidates):
                state = _fresh_state(view.seat, view.dealer, hands, view.contract)
                state.deal.hands[view.seat] = hand & ~cand
                state.deal.discard = cand
                totals[i] += rollout(state, rng)
            done += 1
        best = max(range(len(candidates)), key=lambda i: totals[i])
        return _cards(candidates[best])


def _cards(m: int) -> frozenset[engine.Card]:
    return frozenset(engine.Card(c) for c in cards_of(m))


def _template(view: engine.View, k: Knowledge, hands: list[int]) -> PlayState | None:
    """The public part of the state, from one sample replayed through the engine."""
    try:
        deal = rebuild(view, k, hands)
    except TarotError:
        return None
    if deal.to_act != view.to_act or deal.phase is not Phase.PLAY:
        return None
    return PlayState.from_deal(deal)


def _state_of(base: PlayState, view: engine.View, hands: list[int]) -> PlayState:
    """``base`` with the hidden cards of another sample: the hands, the unseen discard or chien."""
    state = base.copy()
    deal = state.deal
    deal.hands = hands[:4]
    if view.contract.shows_chien and view.discard is None:
        deal.discard = hands[PILE] | mask_of(view.discard_trumps)
    elif view.contract is Contract.GARDE_SANS:
        deal.chien = hands[PILE]
    return state


def _sample_with_bids(k: Knowledge, view: engine.View, rng: random.Random) -> list[int]:
    """A sample, redrawn (a few times at most) while a bid contradicts the hand it gives."""
    hands = k.sample(rng)
    for _ in range(8):
        if all(_fits_bid(k, view, seat, contract, hands) for seat, contract in view.bids):
            break
        hands = k.sample(rng)
    return hands


def _fits_bid(
    k: Knowledge, view: engine.View, seat: int, contract: Contract, hands: list[int]
) -> bool:
    if seat == k.seat:
        return True
    dealt = hands[seat] | k.played_by[seat]
    if seat == view.taker and view.contract.shows_chien and view.chien is not None:
        dealt &= ~mask_of(view.chien)
    if dealt.bit_count() != 18:
        return True  # the taker's discard is unseen: no sound estimate
    points = expert.hand_points(dealt)
    if contract is Contract.PASS:
        return points < expert.THRESHOLDS[0] + 6
    return points >= expert.THRESHOLDS[contract - 1] - 12


def _fresh_state(taker: int, dealer: int, hands: list[int], contract: Contract) -> PlayState:
    """A deal at its first card: ``hands`` (4 hands + the chien), no chelem, no poignee."""
    dealt = (hands[0], hands[1], hands[2], hands[3])
    deal = Deal(dealer, dealt, hands[PILE], hands[:4], Phase.PLAY, taker=taker, contract=contract)
    deal.leader = deal.to_act = deal.first_bidder
    return PlayState(deal)


def _contract_values(
    seat: int, dealer: int, hands: list[int], allowed: list[Contract], rng: random.Random
) -> dict[Contract, float]:
    """The seat's score (3a) for each contract, played out on one sample."""
    out: dict[Contract, float] = {}
    chien = hands[PILE]
    shown = [c for c in allowed if c.shows_chien]
    if shown:
        hand = hands[seat] | chien
        cards = expert.discard(hand, discard_rule(hand))
        state = _fresh_state(seat, dealer, hands, Contract.PRISE)
        state.deal.hands[seat] = hand & ~mask_of(cards)
        state.deal.discard = mask_of(cards)
        _add_poignees(state.deal)
        rollout(state, rng)
        for contract in shown:
            state.deal.contract = contract
            out[contract] = 1.5 * taker_result(state.deal)
    for contract in (Contract.GARDE_SANS, Contract.GARDE_CONTRE):
        if contract in allowed:
            state = _fresh_state(seat, dealer, hands, contract)
            _add_poignees(state.deal)
            out[contract] = 1.5 * rollout(state, rng)
    return out


def _add_poignees(deal: Deal) -> None:
    """Every seat shows the highest poignee its hand allows (as the expert does)."""
    for seat in range(4):
        if (deal.hands[seat] & TRUMPS).bit_count() >= 9:
            offers = poignee_offers(deal, seat)
            if offers:
                deal.poignees[seat] = mask_of(offers[-1].cards)


def _discard_candidates(hand: int, rule: engine.DiscardRule) -> list[int]:
    """A handful of sensible discards, all inside the rule, without repeats."""
    found = [mask_of(expert.discard(hand, rule)), mask_of(basic.discard(hand, rule))]
    required = mask_of(rule.required)
    allowed = mask_of(rule.allowed)
    room = rule.count - required.bit_count()
    by_points = sorted(cards_of(allowed & ~required & ~TRUMPS), key=lambda c: -HALF_POINTS[c])
    if len(by_points) >= room:
        found.append(required | mask_of(by_points[:room]))
    for s in range(4):
        suit = allowed & ~required & SUIT_MASKS[s]
        if hand & KINGS & SUIT_MASKS[s] or not suit or suit.bit_count() > room:
            continue
        rest = [c for c in by_points if not (1 << c) & suit]
        extra = room - suit.bit_count()
        if len(rest) >= extra:
            found.append(required | suit | mask_of(rest[:extra]))
    out: list[int] = []
    for m in found:
        if m not in out and rule.is_valid(_cards(m)):
            out.append(m)
    return out
