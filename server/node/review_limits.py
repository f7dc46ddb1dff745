"""How many deal reviews a player may start: one at a time, a bounded number per window.

A review costs seconds of CPU, so the bound is the player's, not the
connection's: ten connections get no more than one. The player is the one
``Connection.player`` names (the account signed in, else the address the
connection comes from, after trusted proxies: what a guest cannot multiply).
Reviews already made (in the node's cache or the history database) and
analyses already running for someone else cost nothing and are not counted.
``PlayerLimits`` counts on this node (the memory store: one node); a store
shared by several nodes counts for all of them (``TableStore.review_limits``:
``server/store/redis/review_limits.py``).
"""

from __future__ import annotations

import time
from collections import Counter, deque
from collections.abc import Callable

from server.store.base import REVIEW_WINDOW_SECONDS as WINDOW_SECONDS
from server.store.base import ReviewLimits as Limits
from server.table.refusals import review_refused as refused
from server.table.refusals import reviews_over as over

__all__ = ["PER_PLAYER", "WINDOW_SECONDS", "Limits", "PlayerLimits"]

PER_PLAYER = 10
SWEEP_AT = 4096  # players remembered before the idle ones are forgotten


class PlayerLimits:
    """Reviews started per player: one at a time, ``per_window`` in ``window`` seconds
    (0: no limit at all, for benchmarks whose clients all come from one address)."""

    def __init__(
        self,
        per_window: int = PER_PLAYER,
        window: float = WINDOW_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_window = per_window
        self.window = window
        self._clock = clock
        self._started: dict[str, deque[float]] = {}
        self._running: Counter[str] = Counter()

    async def charge(self, player: str) -> None:
        """Count a review ``player`` starts; ``TableRefused`` (``review_limit``) if over."""
        if not self.per_window:
            return
        now = self._clock()
        if self._running[player]:
            raise refused("a review is already running for you")
        started = self._recent(player, now)
        if len(started) >= self.per_window:
            wait = started[0] + self.window - now
            raise over(self.per_window, self.window, wait)
        started.append(now)
        self._running[player] += 1
        if len(self._started) > SWEEP_AT:
            self._sweep(now)

    async def done(self, player: str) -> None:
        """The review ``player`` was charged for is over (made or failed)."""
        if player not in self._running:
            return  # charged with no limit
        self._running[player] -= 1
        if self._running[player] <= 0:
            del self._running[player]

    def _recent(self, player: str, now: float) -> deque[float]:
        started = self._started.setdefault(player, deque())
        while started and started[0] <= now - self.window:
            started.popleft()
        return started

    def _sweep(self, now: float) -> None:
        for player in list(self._started):
            if not self._recent(player, now) and not self._running[player]:
                del self._started[player]
