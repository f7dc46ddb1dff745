"""Our engine's AI levels (``ai.make_bot``) as client bots, deciding from the client's view.

``tarot bot --policy ai:LEVEL`` plays with one. The wire view (``SeatView``
plus ``LegalChoices``) is turned back into the ``engine.View`` that the AI
reads (``protocol.convert.engine_view``), and its action into the wire's.
The decision is the AI's. It lives here, not in the client library, since a
client imports nothing above it: the library is the protocol's, the AI ours.
"""

from __future__ import annotations

import random

import ai
from clients.python import Bot, WireAction
from protocol import models as m
from protocol.convert import action_model, engine_view


class EngineBot(Bot):
    """One of ``ai.LEVELS`` (random, basic, expert, strong), playing through the client."""

    def __init__(self, level: str = "basic", seed: int | str | None = None) -> None:
        self.ai = ai.make_bot(level)
        self.name = f"ai:{level}"
        self.rng = random.Random(seed)

    def decide(self, view: m.SeatView, legal: m.LegalChoices) -> WireAction:
        return action_model(self.ai.choose(engine_view(view, legal), self.rng))
