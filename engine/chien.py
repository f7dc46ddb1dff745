"""The chien and the taker's discard (R6, R7).

Prise and garde: the chien is shown and taken, then six cards are discarded.
No King and no bout may be discarded; ordinary cards (neither trumps, Kings
nor the Excuse) come first, and trumps T2-T20 only fill a shortfall. Trumps
in the discard are public. Garde sans and garde contre leave the chien
unseen; it counts for the taker or the defence at the end (see ``scoring``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import (
    BOUTS,
    CHIEN_SIZE,
    CODES,
    DISCARDABLE_TRUMPS,
    KINGS,
    ORDINARY,
    TRUMPS,
    Card,
    cards_of,
    mask_of,
)
from .errors import DiscardedNotInHand, IllegalDiscard
from .state import CHELEM, Deal


@dataclass(frozen=True, slots=True)
class DiscardRule:
    """What the taker may discard: ``count`` cards of ``allowed``, all of ``required``.

    Listing every 6-card subset is not practical; this describes them all and
    validates any one (``is_valid``).
    """

    count: int
    allowed: frozenset[Card]
    required: frozenset[Card]

    def is_valid(self, cards: frozenset[Card] | set[Card]) -> bool:
        return len(cards) == self.count and self.required <= cards <= self.allowed

    def default(self) -> frozenset[Card]:
        """A valid discard: the required cards, then the lowest allowed ones."""
        rest = sorted(self.allowed - self.required, key=_discard_preference)
        return frozenset([*self.required, *rest[: self.count - len(self.required)]])

    def sample(self, rng: random.Random) -> frozenset[Card]:
        """A uniformly drawn valid discard."""
        optional = sorted(self.allowed - self.required)
        picked = rng.sample(optional, self.count - len(self.required))
        return frozenset([*self.required, *picked])


def _discard_preference(card: Card) -> tuple[int, int]:
    # Lowest value first; trumps after suit cards so a default never shows more than needed.
    return (card < 22, card)


def discard_rule(hand: int) -> DiscardRule:
    ordinary = hand & ORDINARY
    if ordinary.bit_count() >= CHIEN_SIZE:
        return DiscardRule(CHIEN_SIZE, frozenset(cards_of(ordinary)), frozenset())
    allowed = ordinary | (hand & DISCARDABLE_TRUMPS)
    return DiscardRule(CHIEN_SIZE, frozenset(cards_of(allowed)), frozenset(cards_of(ordinary)))


def check_discard(deal: Deal, cards: frozenset[Card]) -> int:
    """Return the discard as a bitset, or raise the R6 error that refuses it."""
    seat = deal.to_act
    hand = deal.hands[seat]
    mask = mask_of(cards)
    if len(cards) != CHIEN_SIZE:
        raise IllegalDiscard(f"seat {seat} discarded {len(cards)} cards but must discard 6")
    if mask & ~hand:
        missing = " ".join(CODES[c] for c in cards_of(mask & ~hand))
        raise DiscardedNotInHand(f"seat {seat} discarded {missing} not in hand")
    if mask & KINGS:
        kings = " ".join(CODES[c] for c in cards_of(mask & KINGS))
        raise IllegalDiscard(f"seat {seat} discarded {kings}: no king may be discarded")
    if mask & BOUTS:
        bouts = " ".join(CODES[c] for c in cards_of(mask & BOUTS))
        raise IllegalDiscard(f"seat {seat} discarded {bouts}: no bout may be discarded")
    kept_ordinary = hand & ORDINARY & ~mask
    if mask & TRUMPS and kept_ordinary:
        trumps = " ".join(CODES[c] for c in cards_of(mask & TRUMPS))
        ordinary = " ".join(CODES[c] for c in cards_of(kept_ordinary))
        raise IllegalDiscard(
            f"seat {seat} discarded {trumps} but must discard ordinary cards first ({ordinary})"
        )
    return mask


def apply_discard(deal: Deal, cards: frozenset[Card]) -> None:
    mask = check_discard(deal, cards)
    deal.hands[deal.to_act] &= ~mask
    deal.discard = mask
    deal.phase = CHELEM


def public_discard(deal: Deal) -> int:
    """R6: trumps in the discard are shown to all."""
    return deal.discard & TRUMPS
