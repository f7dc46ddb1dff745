"""Conversions between engine values and wire models, in one place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import engine
from engine import events as ev

from . import models as m


def codes(cards: Sequence[int]) -> list[str]:
    return [engine.CODES[c] for c in cards]


def contract_code(contract: engine.Contract) -> m.ContractCode:
    return cast(m.ContractCode, contract.code)


def level_code(level: engine.PoigneeLevel) -> m.PoigneeLevelName:
    return cast(m.PoigneeLevelName, level.code)


def sheet_model(sheet: engine.ScoreSheet) -> m.ScoreSheet:
    return m.ScoreSheet.model_validate(sheet.to_json())


def legal_model(legal: engine.Legal) -> m.LegalChoices | None:
    if legal.seat < 0:
        return None
    discard = None
    if legal.discard is not None:
        rule = legal.discard
        discard = m.DiscardChoice(
            count=rule.count,
            allowed=codes(sorted(rule.allowed)),
            required=codes(sorted(rule.required)),
        )
    return m.LegalChoices(
        seat=legal.seat,
        phase=legal.phase.value,
        bids=[contract_code(c) for c in legal.bids],
        discard=discard,
        chelem=any(isinstance(a, engine.DeclareChelem) for a in legal.actions),
        poignees=[
            m.PoigneeChoice(
                level=level_code(o.level), size=o.level.value, cards=codes(sorted(o.cards))
            )
            for o in legal.poignees
        ],
        cards=codes(legal.cards),
    )


def _trick(trick: engine.Trick) -> m.TrickInfo:
    return m.TrickInfo(leader=trick.leader, cards=codes(trick.cards), winner=trick.winner)


def view_model(view: engine.View, deal_number: int) -> m.SeatView:
    current = None
    if view.phase is engine.Phase.PLAY and view.trick_leader >= 0:
        current = m.TrickInfo(leader=view.trick_leader, cards=codes(view.trick))
    return m.SeatView(
        seat=view.seat,
        deal_number=deal_number,
        dealer=view.dealer,
        phase=view.phase.value,
        to_act=view.to_act if view.to_act >= 0 else None,
        hand=codes(view.hand),
        hand_sizes=list(view.hand_sizes),
        bids=[m.BidInfo(seat=s, contract=contract_code(c)) for s, c in view.bids],
        taker=view.taker if view.taker >= 0 else None,
        contract=contract_code(view.contract) if view.taker >= 0 else None,
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
        points=list(view.points),
        tricks_won=list(view.tricks_won),
        legal=legal_model(view.legal),
        sheet=sheet_model(view.sheet) if view.sheet is not None else None,
    )


def event_model(event: engine.Event) -> m.Model:
    """The wire form of an engine event (``DealStarted`` is sent by the table itself)."""
    match event:
        case ev.HandDealt(seat=seat, cards=cards):
            return m.HandEvent(seat=seat, cards=codes(cards))
        case ev.BidMade(seat=seat, contract=contract):
            return m.BidEvent(seat=seat, contract=contract_code(contract))
        case ev.TakerKnown(taker=taker, contract=contract):
            return m.TakerEvent(seat=taker, contract=contract_code(contract))
        case ev.ChienRevealed(cards=cards):
            return m.ChienEvent(cards=codes(cards))
        case ev.DiscardMade(seat=seat, trumps=trumps):
            return m.DiscardEvent(seat=seat, trumps=codes(trumps))
        case ev.DiscardKept(seat=seat, cards=cards):
            return m.DiscardKeptEvent(seat=seat, cards=codes(cards))
        case ev.ChelemDeclared(seat=seat, announced=announced):
            return m.ChelemEvent(seat=seat, announced=announced)
        case ev.PoigneeShown(seat=seat, level=level, cards=cards):
            return m.PoigneeEvent(seat=seat, level=level_code(level), cards=codes(cards))
        case ev.CardPlayed(seat=seat, card=card):
            return m.CardEvent(seat=seat, card=engine.CODES[card])
        case ev.TrickTaken(number=number, trick=trick, points=points):
            return m.TrickEvent(
                number=number,
                leader=trick.leader,
                cards=codes(trick.cards),
                winner=trick.winner,
                points=list(points),
            )
        case ev.DealCancelled(reason=reason):
            return m.CancelledEvent(reason=reason)  # type: ignore[arg-type]
    raise ValueError(f"no wire form for {type(event).__name__}")


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
