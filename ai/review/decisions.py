"""The decisions of a finished deal, read from its record, each with the state it was taken in.

A record (``tarot-record/1``) lists what each seat did; a review needs every
point where a seat chose, in the order of the record: each bid, the discard,
the chelem decision, each card, and a poignee decision wherever a seat could
show one before its first card (``engine.poignee_offers``), shown or not. The
record is first checked by ``engine.load_record`` (an illegal record raises
``engine.RecordError``), then replayed action by action through
``engine.apply_in_place``, keeping a copy of the deal before each decision.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import engine
from engine import Contract, Deal, Phase, apply_in_place, deal_from_hands, parse_card, parse_cards

KINDS = ("bid", "discard", "chelem", "poignee", "card")
NO_POIGNEE = "none"


@dataclass(frozen=True, slots=True)
class Decision:
    """One choice of one seat: the deal just before it and what was chosen (its key).

    ``action`` is None for a poignee the seat could show and did not.
    """

    index: int
    seat: int
    kind: str
    before: Deal
    action: engine.Action | None
    chosen: str


def decisions_of(record: Any) -> tuple[list[Decision], Deal]:
    """Every decision of a finished deal's record, in order, and the final deal."""
    final = engine.load_record(record)
    deal = deal_from_hands(
        record["dealer"],
        [parse_cards(hand) for hand in record["hands"]],
        parse_cards(record["chien"]),
    )
    out: list[Decision] = []
    for kind, action in _steps(record, deal):
        if kind == "poignee" and action is None:
            out.append(Decision(len(out), deal.to_act, kind, deal.copy(), None, NO_POIGNEE))
            continue
        assert action is not None
        out.append(Decision(len(out), action.seat, kind, deal.copy(), action, key_of(action)))
        apply_in_place(deal, action)
    return out, final


def _steps(record: dict[str, Any], deal: Deal) -> Iterator[tuple[str, engine.Action | None]]:
    """The record's decisions in order; ``deal`` must be moved on by the caller after each."""
    for code in record["bids"]:
        yield "bid", engine.Bid(deal.to_act, Contract.from_code(code))
    if deal.phase is Phase.DONE:
        return
    if deal.phase is Phase.DISCARD:
        cards = frozenset(parse_cards(record["discard"]))
        yield "discard", engine.Discard(deal.taker, cards)
    yield "chelem", engine.DeclareChelem(deal.taker, bool(record.get("chelem", False)))
    shown = {int(s): frozenset(parse_cards(c)) for s, c in record.get("poignees", {}).items()}
    for code in record["plays"]:
        seat = deal.to_act
        if not deal.played_by >> seat & 1 and engine.poignee_offers(deal, seat):
            poignee = shown.get(seat)
            yield "poignee", None if poignee is None else engine.ShowPoignee(seat, poignee)
        yield "card", engine.PLAYS[seat][parse_card(code)]


def key_of(action: engine.Action) -> str:
    """The choice as a short text: a card code, a bid code, a poignee level, true / false."""
    if isinstance(action, engine.Play):
        return engine.card_code(action.card)
    if isinstance(action, engine.Bid):
        return action.contract.code
    if isinstance(action, engine.Discard):
        return discard_key(engine.mask_of(action.cards))
    if isinstance(action, engine.ShowPoignee):
        return engine.PoigneeLevel(len(action.cards)).code
    assert isinstance(action, engine.DeclareChelem)
    return "true" if action.announce else "false"


def discard_key(cards: int) -> str:
    """A discard as its card codes in card order: ``"2H 3H 4H 5S 6S 7S"``."""
    return " ".join(engine.card_code(c) for c in engine.cards_of(cards))


__all__ = ["KINDS", "NO_POIGNEE", "Decision", "decisions_of", "discard_key", "key_of"]
