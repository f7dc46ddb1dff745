"""Deal reviews on a server node: the deal just played, analysed in a bot worker.

A ``review_deal`` names a finished deal of the table the connection follows
(the deal just played: stored deals are not kept yet). Its record goes to
``ai.review`` decision by decision, each decision a job for a worker process
(``BotRunner.run``), so the event loop never waits on the search. The node
gives reviews a worker of their own at the lowest CPU priority (nice 19):
the tables' AI moves never queue behind a review, and a review takes only
the CPU the tables leave (it takes longer while they play). ``IN_FLIGHT``
decisions are analysed at once.

Reviews are cached by deal (its table and number) on the node: a review once
made stays available to the table's followers after the next deal starts. A
second request for a deal being reviewed waits for the same analysis. A
connection may run one review at a time and start ``PER_CONNECTION`` in all
(cached ones are free): the analysis costs seconds of CPU.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable

import engine
from ai.review import DEFAULT_BUDGET_MS, Settings, assemble, jobs, review_job
from protocol import models as m

from .bots import BotRunner
from .table import TableRuntime
from .transitions import TableRefused

log = logging.getLogger("tarot.reviews")

IN_FLIGHT = 1
PER_CONNECTION = 10
CACHED = 64

Key = tuple[str, int]  # table, deal number
Progress = Callable[[int, int], None]


class Reviews:
    def __init__(self, bots: BotRunner, budget_ms: float = DEFAULT_BUDGET_MS) -> None:
        self._bots = bots
        self.settings = Settings(budget_ms=budget_ms)
        self.per_connection = PER_CONNECTION
        self._cache: OrderedDict[Key, m.Review] = OrderedDict()
        self._running: dict[Key, asyncio.Task[m.Review]] = {}
        self._slot = asyncio.Semaphore(IN_FLIGHT)
        self.decisions = 0  # analysed, for the tests and metrics

    def close(self) -> None:
        self._bots.close()

    def cached(self, key: Key) -> m.Review | None:
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
        return found

    async def review(self, key: Key, record: dict[str, object], progress: Progress) -> m.Review:
        """The review of a finished deal's record, from the cache or analysed now."""
        found = self.cached(key)
        if found is not None:
            return found
        task = self._running.get(key)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._analyse(key, record, progress))
            self._running[key] = task
            task.add_done_callback(lambda _: self._running.pop(key, None))
        # shielded: a requester that goes away does not stop another's analysis
        return await asyncio.shield(task)

    async def _analyse(self, key: Key, record: dict[str, object], progress: Progress) -> m.Review:
        work = jobs(record, self.settings)
        entries = []
        for job in work:
            async with self._slot:
                entries.append(await self._bots.run(review_job, job))
            self.decisions += 1
            progress(len(entries), len(work))
        result = m.Review.model_validate(assemble(entries, self.settings))
        self._cache[key] = result
        while len(self._cache) > CACHED:
            self._cache.popitem(last=False)
        return result


def finished_record(deal: engine.Deal) -> dict[str, object] | None:
    """The record of a deal that can be reviewed: played to its end (not cancelled)."""
    if not deal.is_over or deal.cancelled:
        return None
    return engine.to_record(deal)


class ConnectionReviews:
    """One connection's reviews: one at a time, ``PER_CONNECTION`` in all, sent as they come."""

    def __init__(self, reviews: Reviews, send: Callable[[m.Model], None]) -> None:
        self._reviews = reviews
        self._send = send
        self.started = 0
        self._task: asyncio.Task[None] | None = None

    def request(self, runtime: TableRuntime | None, number: int, re: m.RequestId | None) -> None:
        """Start reviewing deal ``number`` of ``runtime``; ``TableRefused`` if it cannot be."""
        if runtime is None:
            raise TableRefused("review_unavailable", "this connection follows no table")
        key = (runtime.table_id, number)
        deal = runtime.data.deal
        state = runtime.state
        record: dict[str, object] | None = {}  # a review already made needs no record
        if self._reviews.cached(key) is None:
            record = None
            if deal is not None and state is not None and deal.number == number:
                record = finished_record(state)
        if record is None:
            raise TableRefused(
                "review_unavailable",
                f"deal {number} is not a finished deal of table {runtime.table_id}"
                " (only the deal just played can be reviewed)",
            )
        if self._reviews.cached(key) is None:
            if self._task is not None and not self._task.done():
                raise TableRefused("review_limit", "a review is already running for you")
            limit = self._reviews.per_connection
            if self.started >= limit:
                raise TableRefused("review_limit", f"at most {limit} reviews per connection")
            self.started += 1
        self._task = asyncio.get_running_loop().create_task(
            self._answer(key, record, runtime.table_id, number, re)
        )

    async def _answer(
        self,
        key: Key,
        record: dict[str, object],
        table_id: str,
        number: int,
        re: m.RequestId | None,
    ) -> None:
        def progress(done: int, total: int) -> None:
            self._send(
                m.ReviewProgress(
                    table_id=table_id, deal_number=number, done=done, total=total, re=re
                )
            )

        try:
            result = await self._reviews.review(key, record, progress)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("review of deal %s at table %s failed", number, table_id)
            self._send(m.Error(code="internal", message="the review failed; try again", re=re))
            return
        self._send(m.DealReview(table_id=table_id, deal_number=number, review=result, re=re))

    def close(self) -> None:
        """The connection is gone: stop sending (a shared analysis goes on for the cache)."""
        if self._task is not None:
            self._task.cancel()
