"""Finished deals written in the background; kept in an outbox while the database is down.

Play never waits for the history: the table hands a finished deal to
``DealWriter.submit`` and goes on. One task writes the outbox in order; when
the database does not answer, the deal stays at the head of the outbox and
the write is tried again after a back-off (doubling, capped), so deals wait
in memory until the database returns and none is lost. Writes are
idempotent (``deals.store_checked_deals``), so a write whose answer was lost is simply
tried again. A deal the database refuses for what it is (``BadRecord``) can
never be written: it is logged and dropped instead of blocking the others; so is
one the database refuses for its content (a constraint), the rest of its batch
then written deal by deal. Only an outage keeps a deal waiting.

A finished table waits behind its deals: its series is read from the stored
deals when it is written (``series`` empty), and while fewer are stored than
it played (another node's outbox may still hold some) it is tried again,
for ``table_wait`` seconds at most, then stored with what is there. With
``migrate_first`` the writer first brings the schema to head (a node that
started while the database was down).

Each deal written is then rated (``ratings.rate_deals``, once per deal too),
in the same retry loop: a rating the database did not answer is tried again.

The deals at the head of the outbox (up to ``BATCH``) are written together,
in one transaction, then rated together (``tarot bench server``: a
transaction per deal and per rating was most of what the history cost a
node). A deal is checked (replayed and re-scored) once, when it is
submitted, not again when it is written: a bad one never reaches a batch.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections import deque
from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncEngine

from server.errors import ServerError
from server.metrics import Timings

from .database import migrate
from .deals import (
    FinishedDeal,
    FinishedTable,
    checked,
    played_sheets,
    store_checked_deals,
    store_table,
)
from .errors import BadRecord, DatabaseUnavailable
from .rating_model import RatingError
from .ratings import RatingChange, may_be_rated, rate_deal, rate_deals

log = logging.getLogger("tarot.history")
RETRY_FIRST = 0.05
RETRY_MAX = 5.0
TABLE_WAIT = 60.0
BATCH = 64


class _Incomplete(ServerError):
    """A finished table whose deals are not all stored yet."""


class DealWriter:
    """Writes finished deals to the history database, in order, each exactly once."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        retry_max: float = RETRY_MAX,
        migrate_first: bool = False,
        table_wait: float = TABLE_WAIT,
    ) -> None:
        self._engine = engine
        self._outbox: deque[FinishedDeal | FinishedTable] = deque()
        self._migrated = not migrate_first
        self._table_wait = table_wait
        self._waiting_since: float | None = None  # the head table's first incomplete try
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._retry_max = retry_max
        self._task: asyncio.Task[None] | None = None
        self.stored = 0  # deals this writer stored (a deal already there is not counted)
        self.tables = 0  # finished tables this writer stored
        self.failures = 0  # writes the database did not answer
        # Told the rating changes this writer made (the node tells the tables: a ``ratings``
        # event for the score sheet); it must not raise.
        self.on_rated: Callable[[list[RatingChange]], None] = lambda _: None
        self._down_since: float | None = None  # when the database stopped answering
        self.dropped = 0  # deals or tables the database refused (logged, not written)
        self.timings = Timings()  # each write's duration, for the node's metrics

    def __len__(self) -> int:
        return len(self._outbox)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="history-writer")

    def submit(self, item: FinishedDeal | FinishedTable) -> None:
        """Queue a finished deal (checked now: a bad one is refused here, ``BadRecord``)
        or a finished table."""
        self._outbox.append(checked(item) if isinstance(item, FinishedDeal) else item)
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
            batch = self._head()
            try:
                await self._write_or_drop(batch)
            except _Incomplete:
                await asyncio.sleep(delay)
                delay = min(delay * 2, self._retry_max)
                continue
            except DatabaseUnavailable as e:
                self.failures += 1
                if self._down_since is None:
                    self._down_since = time.monotonic()
                    log.warning("history: %s; %d deals wait in the outbox", e, len(self._outbox))
                await asyncio.sleep(delay)
                delay = min(delay * 2, self._retry_max)
                continue
            for _ in batch:
                self._outbox.popleft()
            if self._down_since is not None:
                log.info(
                    "history: the database answers again after %.1f s; %d deals wait to be written",
                    time.monotonic() - self._down_since,
                    len(self._outbox),
                )
                self._down_since = None
            self._waiting_since = None
            delay = RETRY_FIRST

    async def _write_or_drop(self, batch: list[FinishedDeal | FinishedTable]) -> None:
        """Write ``batch``, or log what the database refuses for what it is: only an
        outage (``DatabaseUnavailable``) or an incomplete table is tried again."""
        start = time.perf_counter()
        try:
            await self._write(batch)
            self.timings.observe(time.perf_counter() - start)
        except (_Incomplete, DatabaseUnavailable):
            raise
        except BadRecord as e:  # cannot happen for a checked deal, unless the schema says no
            self.dropped += len(batch)
            log.error("history: deal dropped, the database refuses it: %s", e)
        except RatingError as e:  # cannot happen for an engine's sheet: the deal stays stored
            log.error("history: a deal not rated: %s", e)
        except Exception:  # the database refused the content (a constraint): not an outage
            if len(batch) > 1:
                await self._write_alone(batch)  # keep the batch's good deals
            else:
                self.dropped += 1
                log.exception("history: %s dropped, the database refuses it", _name(batch[0]))

    async def _write_alone(self, batch: list[FinishedDeal | FinishedTable]) -> None:
        """Write a refused batch's items one by one: only the one refused is dropped.

        The writer task must outlive any deal: were it to die, every later deal would
        wait in the outbox for ever (and its memory grow with each)."""
        for item in batch:
            delay = RETRY_FIRST
            while True:
                try:
                    await self._write([item])
                except DatabaseUnavailable:
                    self.failures += 1
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, self._retry_max)
                    continue
                except (BadRecord, RatingError) as e:
                    self.dropped += 1
                    log.error("history: %s not written: %s", _name(item), e)
                except Exception:
                    self.dropped += 1
                    log.exception("history: %s dropped, the database refuses it", _name(item))
                break

    def _head(self) -> list[FinishedDeal | FinishedTable]:
        """The table at the head of the outbox, or the deals there (up to ``BATCH``)."""
        head = self._outbox[0]
        if not isinstance(head, FinishedDeal):
            return [head]
        batch: list[FinishedDeal | FinishedTable] = []
        for item in self._outbox:
            if not isinstance(item, FinishedDeal) or len(batch) == BATCH:
                break
            batch.append(item)
        return batch

    async def _rate(self, deals: list[FinishedDeal]) -> None:
        try:
            made = await rate_deals(
                self._engine,
                [(d.table_id, d.deal_number) for d in deals],
                leavers={(d.table_id, d.deal_number): dict(d.left) for d in deals if d.left},
            )
        except RatingError:
            if len(deals) == 1:
                raise
            made = await self._rate_alone(deals)
        if made:
            self.on_rated(made)

    async def _rate_alone(self, deals: list[FinishedDeal]) -> list[RatingChange]:
        """Rate a batch's deals each in its own transaction: one could not be rated."""
        made: list[RatingChange] = []
        for deal in deals:
            try:
                made += (
                    await rate_deal(
                        self._engine, deal.table_id, deal.deal_number, leavers=dict(deal.left)
                    )
                    or ()
                )
            except RatingError as e:
                log.error("history: a deal not rated: %s", e)
        return made

    async def _write(self, batch: list[FinishedDeal | FinishedTable]) -> None:
        if not self._migrated:
            await migrate(self._engine)
            self._migrated = True
        item = batch[0]
        if isinstance(item, FinishedDeal):
            deals = [d for d in batch if isinstance(d, FinishedDeal)]
            self.stored += await store_checked_deals(self._engine, deals)
            # A deal of no account was marked as never rated when it was stored.
            rated = [
                d
                for d in deals
                if d.rated and (not d.seats or may_be_rated(o.account_id for o in d.seats))
            ]
            if rated:
                await self._rate(rated)
            return
        if not item.series and item.deals_played:
            series = await played_sheets(self._engine, item.table_id)
            now = time.monotonic()
            if len(series) < item.deals_played:
                self._waiting_since = self._waiting_since or now
                if now - self._waiting_since < self._table_wait:
                    raise _Incomplete
                log.warning(
                    "history: table %s stored with %d of its %d deals",
                    item.table_id,
                    len(series),
                    item.deals_played,
                )
            item = dataclasses.replace(item, series=series)
        if await store_table(self._engine, item):
            self.tables += 1


def _name(item: FinishedDeal | FinishedTable) -> str:
    if isinstance(item, FinishedDeal):
        return f"deal {item.deal_number} of table {item.table_id}"
    return f"table {item.table_id}"
