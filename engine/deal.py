"""Dealing (R2) and the petit sec cancellation (R3)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import (
    ALL_CARDS,
    CHIEN_SIZE,
    CODES,
    DECK_SIZE,
    EXCUSE_BIT,
    HAND_SIZE,
    PETIT,
    TRUMPS,
    Card,
    mask_of,
)
from .errors import InvalidDeal
from .state import DONE, NO_SEAT, Cancellation, Deal


def new_deal(dealer: int, rng: random.Random | int | str | bytes) -> Deal:
    """Shuffle and deal with a handed-in generator or seed (R2: same seed, same deal).

    >>> new_deal(0, 42).dealt == new_deal(0, 42).dealt
    True
    """
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    if not 0 <= dealer <= 3:
        raise InvalidDeal(f"dealer must be 0-3, not {dealer}")
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    # A shuffled deck is a valid deal: the checks of deal_from_hands are not needed.
    masks = [mask_of(deck[HAND_SIZE * s : HAND_SIZE * (s + 1)]) for s in range(4)]
    return _dealt(dealer, masks, mask_of(deck[4 * HAND_SIZE :]))


def deal_from_hands(dealer: int, hands: Sequence[Sequence[int]], chien: Sequence[int]) -> Deal:
    """A deal from explicit hands and chien (tests, records, replays)."""
    if not 0 <= dealer <= 3:
        raise InvalidDeal(f"dealer must be 0-3, not {dealer}")
    if len(hands) != 4:
        raise InvalidDeal(f"4 hands expected, got {len(hands)}")
    names = [f"hands[{s}]" for s in range(4)]
    masks = [_checked_mask(name, hand, HAND_SIZE) for name, hand in zip(names, hands, strict=True)]
    chien_mask = _checked_mask("chien", chien, CHIEN_SIZE)
    seen = 0
    for name, mask in zip([*names, "chien"], [*masks, chien_mask], strict=True):
        if seen & mask:
            dup = " ".join(CODES[c] for c in range(DECK_SIZE) if (seen & mask) >> c & 1)
            raise InvalidDeal(f"{name}: {dup} dealt twice")
        seen |= mask
    if seen != ALL_CARDS:  # pragma: no cover - sizes and no duplicates imply all 78
        raise InvalidDeal("the deal does not hold the 78 cards")
    return _dealt(dealer, masks, chien_mask)


def _dealt(dealer: int, masks: list[int], chien: int) -> Deal:
    """The deal of four valid hands and a chien: bidding, or cancelled for a petit sec (R3)."""
    deal = Deal(dealer, (masks[0], masks[1], masks[2], masks[3]), chien, masks)
    deal.to_act = deal.first_bidder
    if any(is_petit_sec(hand) for hand in masks):
        cancel(deal, "petit_sec")
    return deal


def _checked_mask(name: str, cards: Sequence[int], size: int) -> int:
    if len(cards) != size:
        raise InvalidDeal(f"{name}: {len(cards)} cards, not {size}")
    if any(not 0 <= c < DECK_SIZE for c in cards):
        raise InvalidDeal(f"{name}: a card that does not exist")
    mask = mask_of(cards)
    if mask.bit_count() != size:
        dup = " ".join(sorted({CODES[c] for c in cards if cards.count(c) > 1}))
        raise InvalidDeal(f"{name}: {dup} dealt twice")
    return mask


def is_petit_sec(hand: int) -> bool:
    """R3: the Petit is the hand's only trump and the hand has no Excuse."""
    return hand & TRUMPS == 1 << PETIT and not hand & EXCUSE_BIT


def cancel(deal: Deal, reason: Cancellation) -> None:
    deal.phase = DONE
    deal.to_act = NO_SEAT
    deal.cancelled = reason


__all__ = ["Card", "cancel", "deal_from_hands", "is_petit_sec", "new_deal"]
