"""How long to wait before trying again: exponential, jittered, bounded.

    backoff = Backoff(seconds=60)
    while True:
        try:
            return await attempt()
        except Transient:
            await backoff.wait()        # raises GaveUp once 60 s would be passed

Each pause doubles from ``first`` up to ``cap`` and is drawn between half of
it and all of it, so that clients refused together (a store that stalled for
every table at once) do not come back together. The bound is on the whole
retrying: once the next pause would end past ``seconds`` after the first
try, the caller gives up. PROTOCOL.md section 14 says how a client should
retry; these are its numbers (0.25 s doubling to 4 s, with jitter).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .errors import ClientError


class GaveUp(ClientError):
    """The retries' time is up: the caller raises its own error instead."""


@dataclass(slots=True)
class Backoff:
    """The pauses of one retried operation; make a new one for each operation."""

    seconds: float = 60.0
    first: float = 0.25
    cap: float = 4.0
    rng: random.Random = field(default_factory=random.Random)
    clock: Callable[[], float] = time.monotonic
    tries: int = 0
    _deadline: float | None = None

    def next_pause(self) -> float:
        """The next pause, or ``GaveUp`` when it would end past the bound."""
        now = self.clock()
        if self._deadline is None:
            self._deadline = now + self.seconds
        full = min(self.cap, self.first * 2**self.tries)
        pause = self.rng.uniform(full / 2, full)
        if now + pause > self._deadline:
            raise GaveUp(f"gave up after {self.tries + 1} tries in {self.seconds:g} s")
        self.tries += 1
        return pause

    async def wait(self) -> None:
        """Sleep the next pause (``GaveUp`` instead when the time is up)."""
        await asyncio.sleep(self.next_pause())
