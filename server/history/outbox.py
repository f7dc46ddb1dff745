"""Finished deals written in the background; kept in an outbox while the database is down.

Play never waits for the history: the table hands a finished deal to
``DealWriter.submit`` and goes on. One task writes the outbox in order; when
the database does not answer, the deal stays at the head of the outbox and
the write is tried again after a back-off (doubling, capped), so deals wait
in memory until the database returns and none is lost. Writes are
idempotent (``deals.store_deal``), so a write whose answer was lost is simply
tried again. A deal the database refuses for what it is (``BadRecord``) can
never be written: it is logged and dropped instead of blocking the others.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque

from sqlalchemy.ext.asyncio import AsyncEngine

from .deals import FinishedDeal, checked, store_deal
from .errors import BadRecord, DatabaseUnavailable

log = logging.getLogger("tarot.history")
RETRY_FIRST = 0.05
RETRY_MAX = 5.0


class DealWriter:
    """Writes finished deals to the history database, in order, each exactly once."""

    def __init__(self, engine: AsyncEngine, *, retry_max: float = RETRY_MAX) -> None:
        self._engine = engine
        self._outbox: deque[FinishedDeal] = deque()
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._retry_max = retry_max
        self._task: asyncio.Task[None] | None = None
        self.stored = 0  # deals this writer stored (a deal already there is not counted)
        self.failures = 0  # writes the database did not answer

    def __len__(self) -> int:
        return len(self._outbox)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="history-writer")

    def submit(self, deal: FinishedDeal) -> None:
        """Queue ``deal`` (checked now: a bad one is refused here, ``BadRecord``)."""
        self._outbox.append(checked(deal))
        self._idle.clear()
        self._wake.set()

    async def flush(self) -> None:
        """Wait until every submitted deal is written."""
        await self._idle.wait()

    async def close(self) -> None:
        """Stop writing; what is still in the outbox is logged (not written)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        if self._outbox:
            log.error("history: %d finished deals not written at shutdown", len(self._outbox))

    async def _run(self) -> None:
        delay = RETRY_FIRST
        while True:
            if not self._outbox:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            deal = self._outbox[0]
            try:
                if await store_deal(self._engine, deal):
                    self.stored += 1
            except DatabaseUnavailable as e:
                self.failures += 1
                if delay == RETRY_FIRST:
                    log.warning("history: %s; %d deals wait in the outbox", e, len(self._outbox))
                await asyncio.sleep(delay)
                delay = min(delay * 2, self._retry_max)
                continue
            except BadRecord as e:  # cannot happen for a checked deal, unless the schema says no
                log.error("history: deal dropped, the database refuses it: %s", e)
            self._outbox.popleft()
            delay = RETRY_FIRST
