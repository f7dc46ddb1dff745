"""``basic``: a clear heuristic policy that reads only its own hand and the current trick.

It is cheap (tens of microseconds per decision) so a server can run it on its
event loop. What it does:

Bidding. Counts bouts (T1, T21, EX) and trumps: three bouts with 10+ trumps
is a garde sans; two bouts with 8+ trumps, or three bouts, a garde; two
bouts, one bout with 8+ trumps, or 10+ trumps, a prise. Otherwise, or when
its contract is not above the highest bid, it passes.

Discard (R6, always legal: it picks inside ``DiscardRule``). Required cards
first; then it empties its shortest suits (to be able to trump them) and,
within a suit, discards the highest cards first (the discard's points are the
taker's); trumps only when the rule forces them, lowest first.

Declarations. Shows the highest poignee the hand allows, with the default
subset. Announces a chelem only with an overwhelming hand (15+ trumps with
both T21 and the Excuse, and the four Kings).

Card play.
- Leading: a King when it has one; the taker with many trumps leads a middle
  trump to draw the defence's trumps; otherwise the lowest card of its
  longest plain suit. Never the Petit while anything else is left.
- Following: when its side is winning and it plays last (or the winning card
  is a King or a trump of 16+), it adds its most valuable card ("charger"),
  and plays the Petit there if it must trump. When the other side is
  winning, it wins with the cheapest card that wins if it plays last, or with
  a King or a sure winner otherwise, and else gives its cheapest card. Which
  card wins the trick, and which would, it asks the engine (R12:
  ``winning_position``, ``beating_cards``).
- The Petit: played when it wins the trick (nobody has trumped and it plays
  last) or when its own side wins; kept otherwise.
- The Excuse: played to avoid giving a valuable card to the other side, and
  always before the last trick (where it would change side, R14).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import engine
from engine import Contract, Phase

from .cardset import (
    BOUTS,
    EXCUSE,
    EXCUSE_BIT,
    HALF_POINTS,
    KINGS,
    MONDE_BIT,
    PETIT,
    PETIT_BIT,
    SUIT_MASKS,
    TRUMPS,
    beating_cards,
    cards_of,
    cheapest,
    highest_card,
    lowest_card,
    mask_of,
    winning_position,
)


@dataclass(slots=True)
class BasicBot:
    name: str = "basic"

    def choose(self, view: engine.View, rng: random.Random) -> engine.Action:
        seat = view.seat
        legal = view.legal
        if seat is None or not legal:
            raise ValueError("it is not this seat's turn")
        hand = mask_of(view.hand)
        if legal.phase is Phase.BIDDING:
            return engine.Bid(seat, bid(hand, legal.bids))
        if legal.discard is not None:
            return engine.Discard(seat, discard(hand, legal.discard))
        if legal.phase is Phase.CHELEM:
            return engine.DeclareChelem(seat, is_overwhelming(hand))
        if legal.poignees:
            return engine.ShowPoignee(seat, legal.poignees[-1].cards)
        legal_mask = mask_of(legal.cards)
        card = play(seat, view.taker, hand, legal_mask, list(view.trick), view.trick_leader)
        return engine.PLAYS[seat][card]


def bid(hand: int, allowed: list[Contract]) -> Contract:
    """The contract the hand is worth, if the bidding still allows it; else pass."""
    trumps = (hand & TRUMPS).bit_count()
    bouts = (hand & BOUTS).bit_count()
    want = Contract.PASS
    if bouts == 3 and trumps >= 10:
        want = Contract.GARDE_SANS
    elif (bouts >= 2 and trumps >= 8) or bouts == 3:
        want = Contract.GARDE
    elif bouts == 2 or (bouts == 1 and trumps >= 8) or trumps >= 10:
        want = Contract.PRISE
    return want if want in allowed else Contract.PASS


def discard(hand: int, rule: engine.DiscardRule) -> frozenset[engine.Card]:
    """Required cards, then whole short suits (highest first), then low trumps."""
    chosen: set[int] = set(rule.required)
    allowed = mask_of(rule.allowed) & ~mask_of(chosen)
    plain = allowed & ~TRUMPS
    suits = sorted(range(4), key=lambda s: ((hand & SUIT_MASKS[s]).bit_count(), s))
    for s in suits:
        for card in reversed(cards_of(plain & SUIT_MASKS[s])):
            if len(chosen) < rule.count:
                chosen.add(card)
    for card in cards_of(allowed & TRUMPS):
        if len(chosen) < rule.count:
            chosen.add(card)
    return frozenset(engine.Card(c) for c in chosen)


def is_overwhelming(hand: int) -> bool:
    """A chelem hand for ``basic``: 15+ trumps, T21, the Excuse and the four Kings."""
    return (
        (hand & TRUMPS).bit_count() >= 15
        and bool(hand & MONDE_BIT)
        and bool(hand & EXCUSE_BIT)
        and hand & KINGS == KINGS
    )


def play(seat: int, taker: int, hand: int, legal: int, trick: list[int], leader: int) -> int:
    """The card to play (see the module docstring)."""
    if legal & (legal - 1) == 0:
        return lowest_card(legal)
    if legal & EXCUSE_BIT and _should_play_excuse(seat, taker, hand, legal, trick, leader):
        return EXCUSE
    options = legal & ~EXCUSE_BIT
    if not trick or trick == [EXCUSE]:
        return lead(seat == taker, hand, options)
    return follow(seat, taker, options, trick, leader)


def lead(is_taker: bool, hand: int, options: int) -> int:
    kings = options & KINGS
    if kings:
        return lowest_card(kings)
    trumps = options & TRUMPS
    if is_taker and trumps.bit_count() >= 8:
        middle = trumps & ~PETIT_BIT & ~MONDE_BIT
        if middle:
            return highest_card(middle)
    plain = options & ~TRUMPS
    if plain:
        longest = max(range(4), key=lambda s: ((plain & SUIT_MASKS[s]).bit_count(), s))
        return lowest_card(plain & SUIT_MASKS[longest])
    return cheapest(options)


def follow(seat: int, taker: int, options: int, trick: list[int], leader: int) -> int:
    last = len(trick) == 3
    position = winning_position(trick)
    winner = (leader + position) % 4
    top = trick[position]
    our_side = (winner == taker) == (seat == taker)
    if our_side and (last or _is_sure(top)):
        return _charge(options)
    winners = beating_cards(trick, options)
    if winners:
        if last:
            return PETIT if winners & PETIT_BIT else cheapest(winners)
        sure = [c for c in cards_of(winners) if _is_sure(c)]
        if sure:
            return min(sure)
        if winners & TRUMPS == winners:
            return cheapest(winners)
    return cheapest(options)


def _is_sure(card: int) -> bool:
    return (1 << card) & KINGS != 0 or (card < 21 and card >= 15)


def _charge(options: int) -> int:
    """The most valuable card to give to one's own side: the Petit if it must trump."""
    if options & PETIT_BIT:
        return PETIT
    plain = options & ~TRUMPS
    if plain:
        return max(cards_of(plain), key=lambda c: (HALF_POINTS[c], c))
    return cheapest(options)


def _should_play_excuse(
    seat: int, taker: int, hand: int, legal: int, trick: list[int], leader: int
) -> bool:
    if hand.bit_count() <= 2:
        return True
    if not trick:
        return False
    position = winning_position(trick)
    if position < 0:
        return False
    winner = (leader + position) % 4
    if (winner == taker) == (seat == taker):
        return False
    others = legal & ~EXCUSE_BIT
    if beating_cards(trick, others):
        return False
    return HALF_POINTS[cheapest(others)] >= 3 or bool(others & PETIT_BIT and others == PETIT_BIT)
