"""AI players: bots that decide from one seat's view (``engine.View``) only.

>>> import random
>>> import engine
>>> from ai import make_bot
>>> deal = engine.new_deal(dealer=0, rng=7)
>>> bot = make_bot("expert")
>>> action = bot.choose(engine.view(deal, deal.to_act), random.Random(7))
>>> action in engine.legal_actions(deal).actions
True

Levels, weakest first: ``random`` (uniform legal actions), ``basic`` (a
cheap heuristic, fine on a server's event loop), ``expert`` (a rule-based
player that tracks played cards and voids), ``strong`` (determinized search
over sampled hidden hands; run it in a process pool).
"""

from __future__ import annotations

from typing import Any

from .base import AiPlayer
from .basic import BasicBot
from .expert import ExpertBot
from .random_bot import RandomBot
from .strong import StrongBot

LEVELS = ("random", "basic", "expert", "strong")


def make_bot(level: str, **options: Any) -> AiPlayer:
    """The bot of a level; ``ValueError`` for an unknown level or option."""
    if level == "random":
        return RandomBot(**options)
    if level == "basic":
        return BasicBot(**options)
    if level == "expert":
        return ExpertBot(**options)
    if level == "strong":
        return StrongBot(**options)
    raise ValueError(f"unknown bot level {level!r}; expected one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "AiPlayer", "make_bot"]
