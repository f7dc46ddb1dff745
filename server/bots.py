"""Running AI decisions without blocking the event loop.

``random`` and ``basic`` decide in well under a millisecond and run inline;
``expert`` and ``strong`` run in a process pool, so no bot ever delays another
table's messages. A bot sees only its seat's view (``engine.view``).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import time
from concurrent.futures import ProcessPoolExecutor

import engine
from ai import make_bot

INLINE_LEVELS = frozenset({"random", "basic"})


def decide(level: str, seat_view: engine.View, seed: str) -> engine.Action:
    """One decision (also the function the worker processes run)."""
    return make_bot(level).choose(seat_view, random.Random(seed))


class BotRunner:
    def __init__(self, workers: int = 1) -> None:
        self._workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None
        self.decisions = 0
        self.pooled = 0  # of which decided in a worker process
        self.seconds = 0.0

    async def decide(self, level: str, seat_view: engine.View, seed: str) -> engine.Action:
        start = time.perf_counter()
        try:
            if level in INLINE_LEVELS:
                return decide(level, seat_view, seed)
            if self._pool is None:
                # Spawned, not forked: a node has threads (asyncio's resolver, Redis),
                # and a fork of a threaded process can deadlock its child (and warns
                # from Python 3.12). The workers start once, on the first decision.
                self._pool = ProcessPoolExecutor(
                    self._workers, mp_context=multiprocessing.get_context("spawn")
                )
            loop = asyncio.get_running_loop()
            self.pooled += 1
            return await loop.run_in_executor(self._pool, decide, level, seat_view, seed)
        finally:
            self.decisions += 1
            self.seconds += time.perf_counter() - start

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
