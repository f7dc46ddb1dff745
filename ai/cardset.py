"""Card helpers over int bitsets shared by the bots (see ``engine.cards`` for the layout).

0..20 trumps T1..T21, 21 the Excuse, 22..77 suit cards (S, H, D, C; ranks 1..K)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import (
    BOUTS,
    EXCUSE,
    EXCUSE_BIT,
    HALF_POINTS,
    KINGS,
    MONDE,
    ORDINARY,
    PETIT,
    SUIT_MASKS,
    TRUMPS,
)

__all__ = [
    "BOUTS",
    "EXCUSE",
    "EXCUSE_BIT",
    "HALF_POINTS",
    "KINGS",
    "MONDE",
    "MONDE_BIT",
    "ORDINARY",
    "PETIT",
    "PETIT_BIT",
    "SUIT_MASKS",
    "TRUMPS",
    "bits",
    "cheapest",
    "highest",
    "lowest",
    "mask",
    "rank",
    "suit",
    "winning_position",
]

PETIT_BIT = 1 << PETIT
MONDE_BIT = 1 << MONDE
KING_RANK = 13


def mask(cards: Iterable[int]) -> int:
    out = 0
    for card in cards:
        out |= 1 << card
    return out


def bits(m: int) -> list[int]:
    """The cards of a bitset, lowest first."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def lowest(m: int) -> int:
    return (m & -m).bit_length() - 1


def highest(m: int) -> int:
    return m.bit_length() - 1


def suit(card: int) -> int:
    """0-3 for suit cards, 4 for trumps, -1 for the Excuse."""
    if card < 21:
        return 4
    if card == EXCUSE:
        return -1
    return (card - 22) // 14


def rank(card: int) -> int:
    """0 (ace) .. 13 (King) for suit cards; 0..20 for trumps."""
    return card if card < 21 else (card - 22) % 14


SUIT_OR_TRUMP = (*SUIT_MASKS, TRUMPS)


def cheapest(m: int) -> int:
    """The card of ``m`` that gives away least: fewest points, then lowest rank.

    The Excuse and the Petit are never the cheapest while anything else is left.
    """
    pool = m & ~EXCUSE_BIT & ~PETIT_BIT or m
    best, best_key = -1, (99, 99)
    while pool:
        low = pool & -pool
        card = low.bit_length() - 1
        pool ^= low
        key = (HALF_POINTS[card], rank(card) + (30 if card < 21 else 0))
        if key < best_key:
            best, best_key = card, key
    return best


def winning_position(trick: Sequence[int]) -> int:
    """The position (0-3) winning a trick so far (R12), or -1 when only the Excuse is in."""
    best_position, best_key, led = -1, -1, -1
    for position, card in enumerate(trick):
        if card == EXCUSE:
            continue
        if led < 0:
            led = 4 if card < 21 else (card - 22) // 14
        if card < 21:
            key = 100 + card
        elif (card - 22) // 14 == led:
            key = card
        else:
            continue
        if key > best_key:
            best_position, best_key = position, key
    return best_position
