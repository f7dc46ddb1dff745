"""The 78 cards: codes (docs/RECORD.md), card points (R15) and int bitsets.

A card is an int index. The layout is chosen so that a bitset of cards is a
plain Python int and rank comparisons are integer comparisons:

    0..20   trumps T1..T21 (index = number - 1)
    21      the Excuse (EX)
    22..77  suit cards, 14 per suit in the order S, H, D, C, ranks 1..K

Within one suit, and among trumps, a higher index is a higher card (R12).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NewType, cast

from .errors import UnknownCard

Card = NewType("Card", int)

SUITS = ("S", "H", "D", "C")
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")

EXCUSE = Card(21)
PETIT = Card(0)
MONDE = Card(20)
TRUMP_SUIT = 4  # the suit number of trumps in `suit_of`; the Excuse has none (-1)

DECK_SIZE = 78
HAND_SIZE = 18
CHIEN_SIZE = 6

ALL_CARDS = (1 << DECK_SIZE) - 1
TRUMPS = (1 << 21) - 1
EXCUSE_BIT = 1 << EXCUSE
BOUTS = (1 << PETIT) | (1 << MONDE) | EXCUSE_BIT
SUIT_MASKS = tuple(((1 << 14) - 1) << (22 + 14 * s) for s in range(4))
KINGS = sum(1 << (22 + 14 * s + 13) for s in range(4))
# Trumps that may fill a discard shortfall (R6): every trump but the Petit and the Monde.
DISCARDABLE_TRUMPS = TRUMPS & ~(1 << PETIT) & ~(1 << MONDE)
# "Ordinary" cards of R6: neither trumps nor Kings nor the Excuse.
ORDINARY = ALL_CARDS & ~TRUMPS & ~EXCUSE_BIT & ~KINGS


def _code(index: int) -> str:
    if index < 21:
        return f"T{index + 1}"
    if index == EXCUSE:
        return "EX"
    suit, rank = divmod(index - 22, 14)
    return RANKS[rank] + SUITS[suit]


CODES: tuple[str, ...] = tuple(_code(i) for i in range(DECK_SIZE))
_BY_CODE: dict[str, Card] = {code: Card(i) for i, code in enumerate(CODES)}


def _half_points(index: int) -> int:
    """Card points (R15) doubled, so that every sum stays an int."""
    if (1 << index) & (BOUTS | KINGS):
        return 9
    if index < 22:
        return 1
    return (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 5, 7, 9)[(index - 22) % 14]  # ace .. King


HALF_POINTS: tuple[int, ...] = tuple(_half_points(i) for i in range(DECK_SIZE))


def _suit(index: int) -> int:
    if index < 21:
        return TRUMP_SUIT
    return -1 if index == EXCUSE else (index - 22) // 14


# Per card, for search loops that cannot afford a call: its suit number (as
# ``suit_of``), the mask of every card of that suit (TRUMPS for a trump, 0 for
# the Excuse: the cards that follow it, R11) and its rank (``rank_of``).
SUIT_OF: tuple[int, ...] = tuple(_suit(i) for i in range(DECK_SIZE))
SUIT_MASK_OF: tuple[int, ...] = tuple(
    TRUMPS if i < 21 else 0 if i == EXCUSE else SUIT_MASKS[SUIT_OF[i]] for i in range(DECK_SIZE)
)
RANK_OF: tuple[int, ...] = tuple(
    i if i < 21 else -1 if i == EXCUSE else (i - 22) % 14 for i in range(DECK_SIZE)
)
# Per card, the cards of its suit (trumps for a trump) that rank above it, which beat
# it in a trick (R12): the higher indices of its suit mask; none for the Excuse.
HIGHER_OF: tuple[int, ...] = tuple(SUIT_MASK_OF[i] & -(2 << i) for i in range(DECK_SIZE))

# Per byte of a bitset, the half points of every 8-bit pattern: summing a hand's
# points is then ten table look-ups instead of one per card.
_BYTE_HALF_POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(HALF_POINTS[8 * b + i] for i in range(8) if pattern >> i & 1 and 8 * b + i < 78)
        for pattern in range(256)
    )
    for b in range(10)
)


def parse_card(code: str) -> Card:
    """Return the card of a code: ``parse_card("T21") == MONDE``."""
    try:
        return _BY_CODE[code]
    except (KeyError, TypeError):
        raise UnknownCard(f"unknown card {code!r}") from None


def card_code(card: int) -> str:
    """Return the code of a card: ``card_code(EXCUSE) == "EX"``."""
    return CODES[card]


def suit_of(card: int) -> int:
    """0-3 for suit cards (``SUITS``), TRUMP_SUIT for trumps, -1 for the Excuse."""
    return SUIT_OF[card]


def rank_of(card: int) -> int:
    """0 (ace) .. 13 (King) for suit cards, 0 .. 20 for trumps T1 .. T21, -1 for the Excuse."""
    return RANK_OF[card]


def is_trump(card: int) -> bool:
    return card < 21


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a bitset, lowest index first."""
    out: list[int] = []  # ints, not Card(...) calls: a Card is an int
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return cast(list[Card], out)


def iter_cards(mask: int) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield Card(low.bit_length() - 1)
        mask ^= low


def lowest_card(mask: int) -> Card:
    """The lowest card of a non-empty bitset."""
    return Card((mask & -mask).bit_length() - 1)


def highest_card(mask: int) -> Card:
    """The highest card of a non-empty bitset."""
    return Card(mask.bit_length() - 1)


def half_points(mask: int) -> int:
    """Twice the card points of a bitset (R15)."""
    total = 0
    for table in _BYTE_HALF_POINTS:
        total += table[mask & 0xFF]
        mask >>= 8
    return total


def count(mask: int) -> int:
    return mask.bit_count()


def codes(mask: int) -> list[str]:
    return [CODES[c] for c in cards_of(mask)]


def parse_cards(items: Iterable[str]) -> list[Card]:
    return [parse_card(code) for code in items]
