"""Human-readable lines for engine events (for ``simulate`` and logs)."""

from __future__ import annotations

from engine import (
    CODES,
    BidMade,
    CardPlayed,
    ChelemDeclared,
    ChienRevealed,
    DealCancelled,
    DealEvent,
    DealScored,
    DealStarted,
    DiscardKept,
    DiscardMade,
    HandDealt,
    PoigneeShown,
    TakerKnown,
    TrickTaken,
)


def _codes(cards: tuple[int, ...]) -> str:
    return " ".join(CODES[c] for c in cards) or "-"


def describe_event(event: DealEvent) -> str:  # noqa: C901 - one line per event type
    match event:
        case DealStarted(dealer=dealer):
            return f"deal: seat {dealer} deals"
        case HandDealt(seat=seat, cards=cards):
            return f"  seat {seat}: {_codes(cards)}"
        case BidMade(seat=seat, contract=contract):
            return f"seat {seat} bids {contract.code}"
        case TakerKnown(taker=taker, contract=contract):
            return f"seat {taker} takes: {contract.code}"
        case ChienRevealed(cards=cards):
            return f"chien: {_codes(cards)}"
        case DiscardKept(seat=seat, cards=cards):
            return f"seat {seat} discards {_codes(cards)}"
        case DiscardMade(trumps=trumps):
            return f"  trumps in the discard: {_codes(trumps)}"
        case ChelemDeclared(seat=seat, announced=announced):
            return f"seat {seat} announces chelem" if announced else "no chelem announced"
        case PoigneeShown(seat=seat, level=level, cards=cards):
            return f"seat {seat} shows a {level.code} poignee: {_codes(cards)}"
        case CardPlayed(seat=seat, card=card):
            return f"  seat {seat} plays {CODES[card]}"
        case TrickTaken(number=number, trick=trick):
            return f"trick {number}: seat {trick.winner} wins {_codes(trick.cards)}"
        case DealCancelled(reason=reason):
            return f"deal cancelled: {reason}"
        case DealScored(sheet=sheet):
            return f"score: {sheet.scores}"
    raise TypeError(f"unknown event {event!r}")  # pragma: no cover
