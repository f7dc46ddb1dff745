"""Our engine's AI levels (``ai.make_bot``) as client bots, deciding from the client's view.

The wire view (``SeatView`` plus ``LegalChoices``) is turned back into the
``engine.View`` that the AI reads, and its action into the wire's. Only
conversion here: the decision is the AI's.
"""

from __future__ import annotations

import random

import ai
import engine
from protocol import models as m
from protocol.convert import action_model

from .bot import Bot
from .client import Action


def _cards(codes: list[str]) -> tuple[engine.Card, ...]:
    return tuple(sorted(engine.parse_cards(codes)))


def _seat(seat: int | None) -> int:
    return -1 if seat is None else seat


def engine_legal(legal: m.LegalChoices | None) -> engine.Legal:
    """The engine's ``Legal`` for the wire's legal choices (nothing to do when None)."""
    if legal is None:
        return engine.Legal(-1, engine.Phase.DONE, ())
    seat, phase = legal.seat, engine.Phase(legal.phase)
    actions: list[engine.Action] = [
        engine.Bid(seat, engine.Contract.from_code(c)) for c in legal.bids
    ]
    if legal.chelem:
        actions += [engine.DeclareChelem(seat, False), engine.DeclareChelem(seat, True)]
    offers = tuple(
        engine.PoigneeOffer(engine.PoigneeLevel(o.size), frozenset(_cards(o.cards)))
        for o in legal.poignees
    )
    actions += [engine.ShowPoignee(seat, o.cards) for o in offers]
    actions += [engine.Play(seat, c) for c in _cards(legal.cards)]
    rule = None
    if legal.discard is not None:
        choice = legal.discard
        rule = engine.DiscardRule(
            choice.count, frozenset(_cards(choice.allowed)), frozenset(_cards(choice.required))
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
        hand=_cards(view.hand),
        hand_sizes=(view.hand_sizes[0], view.hand_sizes[1], view.hand_sizes[2], view.hand_sizes[3]),
        bids=tuple((b.seat, engine.Contract.from_code(b.contract)) for b in view.bids),
        taker=_seat(view.taker),
        contract=engine.Contract.from_code(view.contract or "pass"),
        chien=_cards(view.chien) if view.chien is not None else None,
        discard=_cards(view.discard) if view.discard is not None else None,
        discard_trumps=_cards(view.discard_trumps),
        chelem=view.chelem,
        poignees=tuple((p.seat, _cards(p.cards)) for p in view.poignees),
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
        cancelled=view.sheet.reason or "" if view.sheet is not None else "",
    )


def _leader(view: m.SeatView) -> int:
    """Who leads (or led) the trick: after the last trick, its winner; before play, -1."""
    if view.trick is not None:
        return view.trick.leader
    last = view.tricks[-1].winner if view.tricks else None
    return -1 if last is None else last


class EngineBot(Bot):
    """One of ``ai.LEVELS`` (random, basic, expert, strong), playing through the client."""

    def __init__(self, level: str = "basic", seed: int | str | None = None) -> None:
        self.ai = ai.make_bot(level)
        self.name = f"ai:{level}"
        self.rng = random.Random(seed)

    def decide(self, view: m.SeatView, legal: m.LegalChoices) -> Action:
        return action_model(self.ai.choose(engine_view(view, legal), self.rng))
