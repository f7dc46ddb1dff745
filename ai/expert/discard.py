"""The expert's discard (R6, always inside the engine's ``DiscardRule``).

The required cards, then whole suits without a King, shortest first, to make
voids; then the most valuable cards left (Queens, Knights: the discard's
points are the taker's); trumps only when forced, lowest first.
"""

from __future__ import annotations

import engine

from ..cardset import HALF_POINTS, KINGS, SUIT_MASK_OF, SUIT_MASKS, TRUMPS, cards_of, mask_of


def discard(hand: int, rule: engine.DiscardRule) -> frozenset[engine.Card]:
    """Voids first (suits without a King, shortest first), then the most valuable cards."""
    chosen = mask_of(rule.required)
    allowed = mask_of(rule.allowed) & ~chosen
    room = rule.count - chosen.bit_count()
    plain = allowed & ~TRUMPS
    voidable = [s for s in range(4) if not hand & KINGS & SUIT_MASKS[s] and plain & SUIT_MASKS[s]]
    voidable.sort(key=lambda s: (plain & SUIT_MASKS[s]).bit_count())
    for s in voidable:
        cards = plain & SUIT_MASKS[s]
        if 0 < cards.bit_count() <= room:
            chosen |= cards
            plain &= ~cards
            room -= cards.bit_count()
    rest = sorted(cards_of(plain), key=lambda c: (-HALF_POINTS[c], _suit_length(hand, c), -c))
    for card in rest[:room]:
        chosen |= 1 << card
    room = rule.count - chosen.bit_count()
    for card in cards_of(allowed & TRUMPS)[:room]:
        chosen |= 1 << card
    return frozenset(engine.Card(c) for c in cards_of(chosen))


def _suit_length(hand: int, card: int) -> int:
    return (hand & SUIT_MASK_OF[card]).bit_count()


__all__ = ["discard"]
