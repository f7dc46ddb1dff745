"""Declarations before a seat's own first card: poignee (R8, R9) and chelem (R10).

Poignee: a seat about to play its first card may show exactly 10, 13 or 15
trumps (simple, double, triple). The Excuse may stand in for one trump only
when every trump held is shown. One poignee per seat. R9: a taker holding the
four Kings whose hand trumps plus the trumps forced into the public discard
reach 15 may show a triple that includes those discarded trumps.

Chelem: the taker alone decides, once, before the first card of the deal;
an announced chelem makes the taker lead the first trick.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .cards import CODES, EXCUSE, EXCUSE_BIT, KINGS, TRUMPS, Card, cards_of, mask_of
from .errors import IllegalChelem, IllegalPoignee
from .state import PLAY, Deal


class PoigneeLevel(IntEnum):
    """The number of cards shown; ``bonus`` is the R18 bonus, never multiplied."""

    SIMPLE = 10
    DOUBLE = 13
    TRIPLE = 15

    @property
    def bonus(self) -> int:
        return {10: 20, 13: 30, 15: 40}[self.value]

    @property
    def code(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class PoigneeOffer:
    """A level the hand allows and its default subset (R8: lowest trumps first)."""

    level: PoigneeLevel
    cards: frozenset[Card]


def can_declare_poignee(deal: Deal, seat: int) -> bool:
    return deal.phase is PLAY and not deal.played_by >> seat & 1 and seat not in deal.poignees


def poignee_pool(deal: Deal, seat: int, level: PoigneeLevel) -> int:
    """The trumps ``seat`` may show at ``level`` (R8), with the R9 discard trumps."""
    hand = deal.hands[seat]
    pool = hand & TRUMPS
    if level is PoigneeLevel.TRIPLE and _has_r9_exception(deal, seat):
        pool |= deal.discard & TRUMPS
    return pool


def _has_r9_exception(deal: Deal, seat: int) -> bool:
    hand = deal.hands[seat]
    forced = deal.discard & TRUMPS
    return (
        seat == deal.taker
        and bool(forced)
        and hand & KINGS == KINGS
        and (hand & TRUMPS).bit_count() + forced.bit_count() >= PoigneeLevel.TRIPLE
    )


def poignee_offers(deal: Deal, seat: int) -> list[PoigneeOffer]:
    """One default offer per level the hand allows (R8), lowest trumps first."""
    if not can_declare_poignee(deal, seat):
        return []
    # Fewer than 9 trumps, even with the R9 discard trumps: no level is in reach.
    if (deal.hands[seat] & TRUMPS).bit_count() + (deal.discard & TRUMPS).bit_count() < 9:
        return []
    offers = []
    has_excuse = bool(deal.hands[seat] & EXCUSE_BIT)
    for level in PoigneeLevel:
        pool = cards_of(poignee_pool(deal, seat, level))
        if len(pool) >= level:
            offers.append(PoigneeOffer(level, frozenset(pool[:level])))
        elif len(pool) == level - 1 and has_excuse:
            offers.append(PoigneeOffer(level, frozenset([*pool, EXCUSE])))
    return offers


def check_poignee(deal: Deal, seat: int, cards: frozenset[Card]) -> PoigneeLevel:
    """Return the level of a shown subset, or raise the R8/R9 error refusing it."""
    if deal.played_by >> seat & 1:
        raise IllegalPoignee(f"seat {seat} showed a poignee after its first card")
    if seat in deal.poignees:
        raise IllegalPoignee(f"seat {seat} already showed a poignee")
    try:
        level = PoigneeLevel(len(cards))
    except ValueError:
        raise IllegalPoignee(
            f"seat {seat} showed {len(cards)} cards but a poignee is 10, 13 or 15 trumps"
        ) from None
    mask = mask_of(cards)
    pool = poignee_pool(deal, seat, level)
    shown_trumps = mask & ~EXCUSE_BIT
    if shown_trumps & ~pool:
        bad = " ".join(CODES[c] for c in cards_of(shown_trumps & ~pool))
        rule = "R9" if shown_trumps & ~pool & deal.discard else "R8"
        raise IllegalPoignee(f"seat {seat} showed {bad}, not trumps it may show", rule=rule)
    if mask & EXCUSE_BIT:
        if not deal.hands[seat] & EXCUSE_BIT:
            raise IllegalPoignee(f"seat {seat} showed EX, not in hand")
        if shown_trumps != pool:
            raise IllegalPoignee(
                f"seat {seat} showed EX but may only when showing every trump held"
            )
    return level


def apply_poignee(deal: Deal, seat: int, cards: frozenset[Card]) -> None:
    check_poignee(deal, seat, cards)
    deal.poignees[seat] = mask_of(cards)


def apply_chelem(deal: Deal, seat: int, announce: bool) -> None:
    if seat != deal.taker:  # pragma: no cover - the phase machine checks the turn first
        raise IllegalChelem(f"seat {seat} announced chelem but only the taker may")
    deal.chelem = announce
    deal.phase = PLAY
    deal.leader = deal.taker if announce else deal.first_bidder
    deal.to_act = deal.leader
