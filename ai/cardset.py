"""The engine's card helpers as the bots use them, and the bots' own choice of a cheap card.

The layout, the per-card tables and the rules are the engine's public API (``engine``:
0..20 trumps T1..T21, 21 the Excuse, 22..77 suit cards S, H, D, C, ranks 1..K;
the suit led, the card winning a trick so far, the cards that would beat it).
This module re-exports what the bots use and adds only judgement: ``cheapest``.
"""

from __future__ import annotations

from engine import (
    ALL_CARDS,
    BOUTS,
    EXCUSE,
    EXCUSE_BIT,
    HALF_POINTS,
    HIGHER_OF,
    KINGS,
    MONDE,
    ORDINARY,
    PETIT,
    RANK_OF,
    SUIT_MASK_OF,
    SUIT_MASKS,
    SUIT_OF,
    TRUMP_SUIT,
    TRUMPS,
    beating_cards,
    cards_of,
    highest_card,
    led_suit,
    lowest_card,
    mask_of,
    winning_position,
)

__all__ = [
    "ALL_CARDS",
    "BOUTS",
    "EXCUSE",
    "EXCUSE_BIT",
    "HALF_POINTS",
    "HIGHER_OF",
    "KINGS",
    "KING_RANK",
    "MONDE",
    "MONDE_BIT",
    "ORDINARY",
    "PETIT",
    "PETIT_BIT",
    "RANK_OF",
    "SUIT_MASKS",
    "SUIT_MASK_OF",
    "SUIT_OF",
    "SUIT_OR_TRUMP",
    "TRUMPS",
    "TRUMP_SUIT",
    "beating_cards",
    "cards_of",
    "cheapest",
    "highest_card",
    "led_suit",
    "lowest_card",
    "mask_of",
    "winning_position",
]

PETIT_BIT = 1 << PETIT
MONDE_BIT = 1 << MONDE
KING_RANK = 13
# By suit number (``engine.SUIT_OF``): the four suits, then trumps.
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
        key = (HALF_POINTS[card], RANK_OF[card] + (30 if card < 21 else 0))
        if key < best_key:
            best, best_key = card, key
    return best
