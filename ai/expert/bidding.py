"""The expert's bidding: a point count in the manner of Chavey's scale, and its thresholds.

The count: the Monde 10, the Excuse 8, the Petit 5-9 by how well trumps
guard it, 2 a trump and 1 more for each of T16-T20, Kings 6, Queens 3 (4 with
the King), Knights 2, Jacks 1, long suits 5/7/9 for 5/6/7+ cards, voids 6 and
singletons 3 with six or more trumps. Thresholds give prise, garde, garde
sans and garde contre: 41 / 46 / 71 / 81. Chavey's 56 for a garde lost 2.0
points/deal against 51 in the arena (1500 duplicate deals), 51 lost 2.7
against 46, and 41 neither won nor lost against 46; prise at 36 or 46 both
lost against 41.
"""

from __future__ import annotations

from ..cardset import (
    EXCUSE_BIT,
    KING_RANK,
    MONDE,
    PETIT_BIT,
    RANK_OF,
    SUIT_MASKS,
    TRUMPS,
    cards_of,
    highest_card,
)

THRESHOLDS = (41, 46, 71, 81)  # prise, garde, garde sans, garde contre (measured)


def hand_points(hand: int) -> int:
    """Chavey-style count of an 18-card hand (see the module docstring)."""
    trumps = hand & TRUMPS
    n = trumps.bit_count()
    points = 2 * n + (trumps >> 15 & 0b11111).bit_count()
    if hand >> MONDE & 1:
        points += 10
    if hand & EXCUSE_BIT:
        points += 8
    if hand & PETIT_BIT:
        points += (0, 0, 1, 2, 3, 5, 7, 8, 9)[min(n, 8)]
    for s in range(4):
        points += _suit_points(hand & SUIT_MASKS[s], n)
    return points


def _suit_points(cards: int, trumps: int) -> int:
    length = cards.bit_count()
    if not cards:
        return 6 if trumps >= 6 else 0
    has_king = RANK_OF[highest_card(cards)] == KING_RANK
    points = 0
    for card in cards_of(cards):
        points += {13: 6, 12: 4 if has_king else 3, 11: 2, 10: 1}.get(RANK_OF[card], 0)
    if length >= 5:
        points += (5, 7, 9)[min(length, 7) - 5]
    elif length == 1 and trumps >= 6 and not has_king:
        points += 3
    return points


__all__ = ["THRESHOLDS", "hand_points"]
