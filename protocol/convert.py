"""Conversions between engine values and wire models, in one place.

The engine says "no seat" with ``engine.NO_SEAT`` (an int, for search loops); the
wire says it with null. This module is where one becomes the other. The bodies the
server builds by hand on its hot path, without the models, are ``frames.py``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import engine

from . import models as m
from .frames import legal_json


def number(value: float) -> m.Points:
    """A score or point count as the protocol sends it: an int when whole (10, not
    10.0), else the half-point float (52.5). Sums of half points are exact in floats."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def numbers(values: Sequence[float]) -> list[m.Points]:
    """``number`` of each: running totals, the two sides' points."""
    return [number(v) for v in values]


def codes(cards: Sequence[int]) -> list[str]:
    return [engine.CODES[c] for c in cards]


def contract_code(contract: engine.Contract) -> m.ContractCode:
    return cast(m.ContractCode, contract.code)


def level_code(level: engine.PoigneeLevel) -> m.PoigneeLevelName:
    return cast(m.PoigneeLevelName, level.code)


def sheet_model(sheet: engine.DealScore) -> m.ScoreSheet:
    return m.ScoreSheet.model_validate(sheet.to_json())


def legal_model(legal: engine.Legal) -> m.LegalChoices | None:
    body = legal_json(legal)
    return None if body is None else m.LegalChoices.model_validate(body)


def _trick(trick: engine.Trick) -> m.TrickInfo:
    return m.TrickInfo(leader=trick.leader, cards=codes(trick.cards), winner=trick.winner)


def view_model(view: engine.View, deal_number: int) -> m.SeatView:
    current = None
    if view.phase is engine.Phase.PLAY and view.trick_leader != engine.NO_SEAT:
        current = m.TrickInfo(leader=view.trick_leader, cards=codes(view.trick))
    return m.SeatView(
        seat=view.seat,
        deal_number=deal_number,
        dealer=view.dealer,
        phase=view.phase.value,
        to_act=view.to_act if view.to_act != engine.NO_SEAT else None,
        hand=codes(view.hand),
        hand_sizes=list(view.hand_sizes),
        bids=[m.BidInfo(seat=s, contract=contract_code(c)) for s, c in view.bids],
        taker=view.taker if view.taker != engine.NO_SEAT else None,
        contract=contract_code(view.contract) if view.taker != engine.NO_SEAT else None,
        chien=codes(view.chien) if view.chien is not None else None,
        discard=codes(view.discard) if view.discard is not None else None,
        discard_trumps=codes(view.discard_trumps),
        chelem=view.chelem,
        poignees=[
            m.PoigneeInfo(seat=s, level=level_code(engine.PoigneeLevel(len(c))), cards=codes(c))
            for s, c in view.poignees
        ],
        trick=current,
        tricks=[_trick(t) for t in view.tricks],
        points=numbers(view.points),
        tricks_won=list(view.tricks_won),
        legal=legal_model(view.legal),
        sheet=sheet_model(view.sheet) if view.sheet is not None else None,
        taker_bouts=view.taker_bouts,
        target=view.target,
        discard_points=number(view.discard_points) if view.discard_points is not None else None,
    )


# The engine events with a wire form of their own. The table sends the other two
# itself, with what only it knows: DealStarted with the deal's number, DealScored
# with the series' totals.
WireEvent = (
    engine.HandDealt
    | engine.BidMade
    | engine.TakerKnown
    | engine.ChienRevealed
    | engine.DiscardMade
    | engine.DiscardKept
    | engine.ChelemDeclared
    | engine.PoigneeShown
    | engine.CardPlayed
    | engine.TrickTaken
    | engine.DealCancelled
)
WIRE_EVENTS = (
    engine.HandDealt,
    engine.BidMade,
    engine.TakerKnown,
    engine.ChienRevealed,
    engine.DiscardMade,
    engine.DiscardKept,
    engine.ChelemDeclared,
    engine.PoigneeShown,
    engine.CardPlayed,
    engine.TrickTaken,
    engine.DealCancelled,
)
TABLE_EVENTS = (engine.DealStarted, engine.DealScored)


def event_model(event: WireEvent) -> m.Model:
    """The wire model of an engine event; total over ``WireEvent`` (a test checks it).

    The server does not send these: it stores its events in engine terms and
    ``frames.wire_event`` makes their bodies by hand (tests/server/table/
    test_stored_events.py pins those equal to these models' dumps)."""
    convert: Callable[[Any], m.Model] = _EVENT_MODELS[type(event)]
    return convert(event)


def _trick_event(event: engine.TrickTaken) -> m.TrickEvent:
    trick = event.trick
    return m.TrickEvent(
        number=event.number,
        leader=trick.leader,
        cards=codes(trick.cards),
        winner=trick.winner,
        points=numbers(event.points),
        taker_bouts=event.taker_bouts,
        target=event.target,
    )


def _poignee_event(event: engine.PoigneeShown) -> m.PoigneeEvent:
    return m.PoigneeEvent(seat=event.seat, level=level_code(event.level), cards=codes(event.cards))


_EVENT_MODELS: dict[type[WireEvent], Callable[[Any], m.Model]] = {
    engine.HandDealt: lambda e: m.HandEvent(seat=e.seat, cards=codes(e.cards)),
    engine.BidMade: lambda e: m.BidEvent(seat=e.seat, contract=contract_code(e.contract)),
    engine.TakerKnown: lambda e: m.TakerEvent(seat=e.taker, contract=contract_code(e.contract)),
    engine.ChienRevealed: lambda e: m.ChienEvent(cards=codes(e.cards)),
    engine.DiscardMade: lambda e: m.DiscardEvent(seat=e.seat, trumps=codes(e.trumps)),
    engine.DiscardKept: lambda e: m.DiscardKeptEvent(
        seat=e.seat, cards=codes(e.cards), points=number(e.points)
    ),
    engine.ChelemDeclared: lambda e: m.ChelemEvent(seat=e.seat, announced=e.announced),
    engine.PoigneeShown: _poignee_event,
    engine.CardPlayed: lambda e: m.CardEvent(seat=e.seat, card=engine.CODES[e.card]),
    engine.TrickTaken: _trick_event,
    engine.DealCancelled: lambda e: m.CancelledEvent(reason=e.reason),
}


def action_of(
    model: m.BidAction | m.DiscardAction | m.ChelemAction | m.PoigneeAction | m.PlayAction,
    seat: int,
) -> engine.Action:
    """The engine action a seat asks for. Card codes are valid by the model's schema."""
    match model:
        case m.BidAction(contract=contract):
            return engine.Bid(seat, engine.Contract.from_code(contract))
        case m.DiscardAction(cards=cards):
            return engine.Discard(seat, frozenset(engine.parse_cards(cards)))
        case m.ChelemAction(announce=announce):
            return engine.DeclareChelem(seat, announce)
        case m.PoigneeAction(cards=cards):
            return engine.ShowPoignee(seat, frozenset(engine.parse_cards(cards)))
        case m.PlayAction(card=card):
            return engine.Play(seat, engine.parse_card(card))
    raise ValueError(f"not an action: {model!r}")  # pragma: no cover


def action_model(
    action: engine.Action,
) -> m.BidAction | m.DiscardAction | m.ChelemAction | m.PoigneeAction | m.PlayAction:
    """The wire form of an engine action (clients and bots sending a decision)."""
    match action:
        case engine.Bid(contract=contract):
            return m.BidAction(contract=contract_code(contract))
        case engine.Discard(cards=cards):
            return m.DiscardAction(cards=codes(sorted(cards)))
        case engine.DeclareChelem(announce=announce):
            return m.ChelemAction(announce=announce)
        case engine.ShowPoignee(cards=cards):
            return m.PoigneeAction(cards=codes(sorted(cards)))
        case engine.Play(card=card):
            return m.PlayAction(card=engine.CODES[card])
    raise ValueError(f"not an action: {action!r}")  # pragma: no cover


# ---------------------------------------------------------------- wire -> engine views


def _sorted_cards(codes: list[str]) -> tuple[engine.Card, ...]:
    return tuple(sorted(engine.parse_cards(codes)))


def _seat(seat: int | None) -> int:
    return engine.NO_SEAT if seat is None else seat


def engine_legal(legal: m.LegalChoices | None) -> engine.Legal:
    """The engine's ``Legal`` for the wire's legal choices (nothing to do when None)."""
    if legal is None:
        return engine.Legal(engine.NO_SEAT, engine.Phase.DONE, ())
    seat, phase = legal.seat, engine.Phase(legal.phase)
    actions: list[engine.Action] = [
        engine.Bid(seat, engine.Contract.from_code(c)) for c in legal.bids
    ]
    if legal.chelem:
        actions += [engine.DeclareChelem(seat, False), engine.DeclareChelem(seat, True)]
    offers = tuple(
        engine.PoigneeOffer(engine.PoigneeLevel(o.size), frozenset(_sorted_cards(o.cards)))
        for o in legal.poignees
    )
    actions += [engine.ShowPoignee(seat, o.cards) for o in offers]
    actions += [engine.Play(seat, c) for c in _sorted_cards(legal.cards)]
    rule = None
    if legal.discard is not None:
        choice = legal.discard
        rule = engine.DiscardRule(
            choice.count,
            frozenset(_sorted_cards(choice.allowed)),
            frozenset(_sorted_cards(choice.required)),
        )
    return engine.Legal(seat, phase, tuple(actions), discard=rule, poignees=offers)


def engine_view(view: m.SeatView, legal: m.LegalChoices | None = None) -> engine.View:
    """The ``engine.View`` that ``view`` (and the legal choices, if it is the seat's turn) says."""
    trick = view.trick
    return engine.View(
        seat=view.seat,
        dealer=view.dealer,
        phase=engine.Phase(view.phase),
        to_act=_seat(view.to_act),
        hand=_sorted_cards(view.hand),
        hand_sizes=(view.hand_sizes[0], view.hand_sizes[1], view.hand_sizes[2], view.hand_sizes[3]),
        bids=tuple((b.seat, engine.Contract.from_code(b.contract)) for b in view.bids),
        taker=_seat(view.taker),
        contract=engine.Contract.from_code(view.contract or "pass"),
        chien=_sorted_cards(view.chien) if view.chien is not None else None,
        discard=_sorted_cards(view.discard) if view.discard is not None else None,
        discard_trumps=_sorted_cards(view.discard_trumps),
        chelem=view.chelem,
        poignees=tuple((p.seat, _sorted_cards(p.cards)) for p in view.poignees),
        trick_leader=_leader(view),
        trick=tuple(engine.parse_cards(trick.cards)) if trick is not None else (),
        tricks=tuple(
            engine.Trick(t.leader, tuple(engine.parse_cards(t.cards)), _seat(t.winner))
            for t in view.tricks
        ),
        points=(view.points[0], view.points[1]),
        tricks_won=(view.tricks_won[0], view.tricks_won[1], view.tricks_won[2], view.tricks_won[3]),
        legal=engine_legal(legal if legal is not None else view.legal),
        sheet=None,
        cancelled=view.sheet.reason if view.sheet is not None else None,
        taker_bouts=view.taker_bouts,
        target=view.target,
        discard_points=view.discard_points,
    )


def _leader(view: m.SeatView) -> int:
    """Who leads (or led) the trick: after the last trick, its winner; before play, NO_SEAT."""
    if view.trick is not None:
        return view.trick.leader
    last = view.tricks[-1].winner if view.tricks else None
    return engine.NO_SEAT if last is None else last
