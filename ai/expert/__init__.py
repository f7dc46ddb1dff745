"""``expert``: a rule-based player that counts cards and reads the table.

One module per decision: ``bidding`` (a Chavey-style point count and the
measured thresholds), ``discard`` (voids first, then points), ``play`` (card
play from what has been seen: masters, safe tricks, charging, the Petit and
the Excuse). Poignee: always shown (default subset, the highest level).
Chelem: only with an overwhelming hand (``basic.is_overwhelming``). Every
rule the choices stay inside is the engine's (``view.legal``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import engine
from engine import Contract, Phase

from ..basic import is_overwhelming
from ..cardset import mask_of
from .bidding import THRESHOLDS, hand_points
from .discard import discard
from .play import Table, play, play_from_view


@dataclass(slots=True)
class ExpertBot:
    name: str = "expert"
    prise: int = THRESHOLDS[0]
    garde: int = THRESHOLDS[1]
    garde_sans: int = THRESHOLDS[2]
    garde_contre: int = THRESHOLDS[3]

    def choose(self, view: engine.View, rng: random.Random) -> engine.Action:
        seat = view.seat
        legal = view.legal
        if seat is None or not legal:
            raise ValueError("it is not this seat's turn")
        hand = mask_of(view.hand)
        if legal.phase is Phase.BIDDING:
            return engine.Bid(seat, self.bid(hand, legal.bids))
        if legal.discard is not None:
            return engine.Discard(seat, discard(hand, legal.discard))
        if legal.phase is Phase.CHELEM:
            return engine.DeclareChelem(seat, is_overwhelming(hand))
        if legal.poignees:
            return engine.ShowPoignee(seat, legal.poignees[-1].cards)
        return engine.PLAYS[seat][play_from_view(view)]

    def bid(self, hand: int, allowed: list[Contract]) -> Contract:
        points = hand_points(hand)
        want = Contract.PASS
        for contract, threshold in zip(
            list(Contract)[1:],
            (self.prise, self.garde, self.garde_sans, self.garde_contre),
            strict=True,
        ):
            if points >= threshold:
                want = contract
        return want if want in allowed else Contract.PASS


__all__ = [
    "THRESHOLDS",
    "ExpertBot",
    "Table",
    "discard",
    "hand_points",
    "play",
    "play_from_view",
]
