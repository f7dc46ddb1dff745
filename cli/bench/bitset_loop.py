"""The yardstick of ``tarot bench engine``: a bare int-bitset random card-play loop.

It is what the engine's play loop would cost with nothing but the card rules
and no structure: a seeded shuffle into four int-bitset hands, then 72 random
cards, each drawn among a legal-card mask (follow suit, trump, overtrump, the
Excuse), each trick won by the highest trump or the highest card of the suit
led, and the card points of each side counted at the end. No bidding, no
discard, no declarations, no objects per action, no checks: the ceiling a
pure-Python engine can approach, not a second engine. It deliberately shares
no code with ``engine`` so that the ratio measures the engine alone; it plays
no game anyone sees, so it is no rule the project follows (the rules are in
``engine`` only), and ``tests/test_one_rule_one_place.py`` allows it here alone.
"""

from __future__ import annotations

import random

_TRUMPS = (1 << 21) - 1
_EXCUSE = 21
_EXCUSE_BIT = 1 << _EXCUSE
# The mask of the suit of each card: its trumps or its 14 suit cards (0 for the Excuse).
_FOLLOW = tuple(
    _TRUMPS if c < 21 else 0 if c == _EXCUSE else ((1 << 14) - 1) << (22 + 14 * ((c - 22) // 14))
    for c in range(78)
)
_HALF = tuple(
    9
    if c in (0, 20, 21)
    else 1
    if c < 22
    else (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 5, 7, 9)[(c - 22) % 14]
    for c in range(78)
)


def random_deal(rng: random.Random) -> int:
    """One deal of 72 random legal cards, seat 0 against the three others.

    Returns the half points of seat 0's side (R15, the Excuse kept by its
    side as in R13, not the R14 exceptions), a check sum.
    """
    deck = list(range(78))
    rng.shuffle(deck)
    hands = [0, 0, 0, 0]
    for seat in range(4):
        for card in deck[18 * seat : 18 * seat + 18]:
            hands[seat] |= 1 << card
    won = [0, 0]  # by side: seat 0, the others
    tricks: list[tuple[int, tuple[int, ...], int]] = []  # leader, cards, winner: the record
    leader = 0
    for _ in range(18):
        cards, winner = _trick(hands, leader, rng)
        mask = 1 << cards[0] | 1 << cards[1] | 1 << cards[2] | 1 << cards[3]
        if mask & _EXCUSE_BIT:
            mask ^= _EXCUSE_BIT
            won[1 if (leader + cards.index(_EXCUSE)) % 4 else 0] |= _EXCUSE_BIT
        won[1 if winner else 0] |= mask
        tricks.append((leader, tuple(cards), winner))
        leader = winner
    return sum(_HALF[c] for c in range(78) if won[0] >> c & 1)


def _trick(hands: list[int], leader: int, rng: random.Random) -> tuple[list[int], int]:
    """Four random legal cards from ``leader`` on; the cards and the winning seat."""
    follow = 0
    top = -1  # the highest trump so far
    best_key, winner = -1, leader
    cards: list[int] = []
    for position in range(4):
        seat = (leader + position) % 4
        hand = hands[seat]
        legal = _legal(hand, follow, top) if follow else hand
        pick = int(rng.random() * legal.bit_count())
        while pick:
            legal &= legal - 1
            pick -= 1
        card = (legal & -legal).bit_length() - 1
        hands[seat] = hand ^ (1 << card)
        cards.append(card)
        if card == _EXCUSE:
            continue
        if not follow:
            follow = _FOLLOW[card]
        key = 100 + card if card < 21 else card if (1 << card) & follow else -1
        if card < 21 and card > top:
            top = card
        if key > best_key:
            best_key, winner = key, seat
    return cards, winner


def _legal(hand: int, follow: int, top: int) -> int:
    """Follow the suit led; else trump, overtrumping ``top`` if possible; the Excuse always."""
    same = hand & follow
    if same and follow != _TRUMPS:
        return same | (hand & _EXCUSE_BIT)
    trumps = hand & _TRUMPS
    if not trumps:
        return hand
    over = trumps >> (top + 1) << (top + 1)
    return (over or trumps) | (hand & _EXCUSE_BIT)


__all__ = ["random_deal"]
