"""``random``: a uniformly drawn legal action (any valid discard via ``DiscardRule.sample``)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import engine


@dataclass(slots=True)
class RandomBot:
    name: str = "random"

    def choose(self, view: engine.View, rng: random.Random) -> engine.Action:
        legal = view.legal
        if view.seat is None or not legal:
            raise ValueError("it is not this seat's turn")
        if legal.discard is not None:
            return engine.Discard(view.seat, legal.discard.sample(rng))
        return legal.actions[rng.randrange(len(legal.actions))]
