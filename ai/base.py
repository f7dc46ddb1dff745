"""The AI player interface, ``AiPlayer``: a seat's decision from that seat's view, and nothing else.

(A ``clients.python.Bot`` is another thing: a client that plays at a server's table.)

A bot is constructed by level name and options (``ai.make_bot``), holds no
per-deal state, and is picklable, so a server can run it on its event loop
(``basic``) or in a process pool (``strong``). Randomness is handed in.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

import engine


@runtime_checkable
class AiPlayer(Protocol):
    """Decides one action for the seat of ``view``; the action is always legal."""

    name: str

    def choose(self, view: engine.View, rng: random.Random) -> engine.Action: ...
