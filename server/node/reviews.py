"""Deal reviews on a server node: a finished deal analysed in a bot worker, kept once.

Two requests name a deal: ``review_deal`` the deal just played at the table
the connection follows, ``review_stored_deal`` any played deal of the history
database by its id (table id and deal number as stored: the deal's index
among all those dealt at the table). Both come to the same key, the stored
deal's id, so a deal reviewed live is not analysed again from the history.

A review is looked for in the node's cache (``CACHED`` deals), then in the
history database (``server.history.reviews``: any node's analysis, once per
reviewer version), and only then analysed: its record goes to ``ai.review``
decision by decision, each decision a job for a worker process
(``BotRunner.run``), so the event loop never waits on the search. The node
gives reviews a worker of their own at the lowest CPU priority (nice 19):
the tables' AI moves never queue behind a review, and a review takes only
the CPU the tables leave. ``IN_FLIGHT`` decisions are analysed at once. A
review analysed is kept in the database (when the deal is stored: the
node's writer stores it within milliseconds, the analysis takes seconds).

A review is cached encoded (its JSON bytes), not as its model: a review's
model is ~260 objects the cycle collector tracks, and 64 of them, long-lived,
were scanned by every full collection, a pause of the tables' own; bytes are
not tracked, and a cache hit decodes in under a millisecond.

A second request for a deal being analysed waits for the same analysis, free.
Analyses are limited per player (``review_limits``); a connection asks for
one review at a time.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING

import engine
from ai.review.judge import ReviewSettings, assemble, jobs, review_job, reviewer_of
from protocol import models as m
from protocol.errors import error_code
from server.table.refusals import TableError, TableUnavailable
from server.table.transitions import TableRefused

from .bots import BotRunner
from .review_limits import Limits, PlayerLimits
from .runtime import TableRuntime

if TYPE_CHECKING:
    from server.history import KeptReviews  # SQLAlchemy only where the history is kept

log = logging.getLogger("tarot.reviews")

IN_FLIGHT = 1
DEFAULTS = ReviewSettings()  # the default budget, every seat
CACHED = 64

Key = tuple[str, int]  # table id, stored deal number (its index among the deals dealt)
Progress = Callable[[int, int], None]


class Reviews:
    def __init__(
        self,
        bots: BotRunner,
        settings: ReviewSettings = DEFAULTS,
        *,
        limits: Limits | None = None,
        kept: KeptReviews | None = None,
    ) -> None:
        self._bots = bots
        self.settings = settings
        self.reviewer = reviewer_of(settings)
        # Counted by the store when it is shared by several nodes (``build_node``).
        self.limits: Limits = limits or PlayerLimits()
        self.kept = kept  # the history's (a node with an archive)
        self._cache: OrderedDict[Key, bytes] = OrderedDict()  # each review's JSON
        # A deal just played, by its table and number of play: its review stays answerable
        # by that number after the next deal starts.
        self._aliases: OrderedDict[tuple[str, int], Key] = OrderedDict()
        self._running: dict[Key, asyncio.Task[m.Review]] = {}
        self._slot = asyncio.Semaphore(IN_FLIGHT)
        self.decisions = 0  # analysed, for the tests and metrics

    def close(self) -> None:
        self._bots.close()

    def cached(self, key: Key) -> m.Review | None:
        found = self._cache.get(key)
        if found is None:
            return None
        self._cache.move_to_end(key)
        return m.Review.model_validate_json(found)

    def is_cached(self, key: Key) -> bool:
        return key in self._cache

    def alias(self, table_id: str, number: int, key: Key) -> None:
        self._aliases[(table_id, number)] = key
        self._aliases.move_to_end((table_id, number))
        while len(self._aliases) > CACHED:
            self._aliases.popitem(last=False)

    def aliased(self, table_id: str, number: int) -> Key | None:
        return self._aliases.get((table_id, number))

    def _keep(self, key: Key, review: m.Review) -> None:
        self._cache[key] = review.model_dump_json().encode()
        while len(self._cache) > CACHED:
            self._cache.popitem(last=False)

    async def made(self, key: Key) -> m.Review | None:
        """The review of ``key`` already made: from the cache, else from the database."""
        found = self.cached(key)
        if found is not None or self.kept is None:
            return found
        from server.history import DatabaseUnavailable

        try:
            stored = await self.kept.get(*key, self.reviewer)
        except DatabaseUnavailable as e:
            log.warning("reviews: %s; analysing instead", e)
            return None
        if stored is None:
            return None
        found = m.Review.model_validate(stored)
        self._keep(key, found)
        return found

    async def check_shown(self, key: Key) -> None:
        """``TableRefused`` (``results_hidden``) for a deal of an open duplicate event."""
        if self.kept is None:
            return
        from server.history import HistoryError

        try:
            await self.kept.check_shown(*key)
        except HistoryError as e:
            raise TableRefused(error_code(e.code), e.message) from e

    async def stored_record(self, key: Key) -> dict[str, object]:
        """The record of stored deal ``key``; ``TableRefused`` if it cannot be reviewed."""
        if self.kept is None:
            raise TableRefused("review_unavailable", "this server keeps no history of deals")
        from server.history import DatabaseUnavailable, NotReviewable

        try:
            return await self.kept.record(*key)
        except NotReviewable as e:
            raise TableRefused("review_unavailable", e.message) from e
        except DatabaseUnavailable as e:
            raise TableUnavailable(error_code(e.code), e.message) from e  # database_unavailable

    async def review(
        self, key: Key, record: dict[str, object], progress: Progress, player: str
    ) -> m.Review:
        """The review of a finished deal's record, analysed now (or joined, if running);
        ``player`` is charged for a new analysis (``TableRefused`` if over the limit)."""
        task = self._running.get(key)
        if task is None:
            await self.limits.charge(player)
            task = self._running.get(key)  # started by another while the charge was made?
            if task is not None:
                await self.limits.done(player)
            else:
                task = asyncio.get_running_loop().create_task(
                    self._charged(key, record, progress, player)
                )
                self._running[key] = task
                task.add_done_callback(lambda _: self._running.pop(key, None))
        # shielded: a requester that goes away does not stop another's analysis
        return await asyncio.shield(task)

    async def _charged(
        self, key: Key, record: dict[str, object], progress: Progress, player: str
    ) -> m.Review:
        try:
            return await self._analyse(key, record, progress)
        finally:
            await self.limits.done(player)

    async def _analyse(self, key: Key, record: dict[str, object], progress: Progress) -> m.Review:
        work = jobs(record, self.settings)
        entries = []
        for job in work:
            async with self._slot:
                entries.append(await self._bots.run(review_job, job))
            self.decisions += 1
            progress(len(entries), len(work))
        result = m.Review.model_validate(assemble(entries, self.settings))
        self._keep(key, result)
        await self._store(key, result.model_dump(mode="json"))
        return result

    async def _store(self, key: Key, made: dict[str, object]) -> None:
        if self.kept is None:
            return
        from server.history import HistoryError

        try:
            await self.kept.put(*key, self.reviewer, made)
        except HistoryError as e:  # kept on this node all the same
            log.warning("reviews: table %s deal %s not stored: %s", *key, e.message)


def finished_record(deal: engine.Deal) -> dict[str, object] | None:
    """The record of a deal that can be reviewed: played to its end (not cancelled)."""
    if not deal.is_over or deal.cancelled:
        return None
    return engine.to_record(deal)


class ConnectionReviews:
    """One connection's reviews: one at a time, answered as they come."""

    def __init__(
        self, reviews: Reviews, send: Callable[[m.Model], None], player: Callable[[], str]
    ) -> None:
        self._reviews = reviews
        self._send = send
        self._player = player
        self._task: asyncio.Task[None] | None = None

    def request(self, runtime: TableRuntime | None, number: int, re: m.RequestId | None) -> None:
        """Start reviewing deal ``number`` of ``runtime``; ``TableRefused`` if it cannot be."""
        if runtime is None:
            raise TableRefused("review_unavailable", "this connection follows no table")
        table_id = runtime.table_id
        deal, state = runtime.data.deal, runtime.state
        record = None
        key = self._reviews.aliased(table_id, number)
        if deal is not None and state is not None and deal.number == number:
            record = finished_record(state)
            if record is not None:
                key = (table_id, runtime.data.dealt - 1)
        if key is None or (record is None and not self._reviews.is_cached(key)):
            raise TableRefused(
                "review_unavailable",
                f"deal {number} is not a finished deal of table {table_id}"
                " (only the deal just played can be reviewed)",
            )
        self._free()
        self._reviews.alias(table_id, number, key)
        self._task = asyncio.create_task(self._answer(key, record, m.DealReview, number, re))

    def request_stored(self, table_id: str, deal_number: int, re: m.RequestId | None) -> None:
        """Start reviewing stored deal ``deal_number`` of ``table_id`` (from the history)."""
        self._free()
        key = (table_id, deal_number)
        self._task = asyncio.create_task(self._answer(key, None, m.StoredDealReview, None, re))

    def _free(self) -> None:
        if self._task is not None and not self._task.done():
            raise TableRefused("review_limit", "a review is already running for you")

    async def _answer(
        self,
        key: Key,
        record: dict[str, object] | None,
        kind: type[m.DealReview] | type[m.StoredDealReview],
        number: int | None,
        re: m.RequestId | None,
    ) -> None:
        table_id, stored = key
        shown = stored if number is None else number

        def progress(done: int, total: int) -> None:
            self._send(
                m.ReviewProgress(
                    table_id=table_id,
                    deal_number=shown,
                    stored=number is None,
                    done=done,
                    total=total,
                    re=re,
                )
            )

        try:
            if number is None:  # a stored deal: not one of an open duplicate event
                await self._reviews.check_shown(key)
            result = await self._reviews.made(key)
            if result is None:
                if record is None:
                    record = await self._reviews.stored_record(key)
                result = await self._reviews.review(key, record, progress, self._player())
        except TableError as e:  # refused, or the store (shared limits) did not answer
            self._send(m.Error(code=e.code, message=e.message, re=re))
            return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("review of deal %s at table %s failed", stored, table_id)
            self._send(m.Error(code="internal", message="the review failed; try again", re=re))
            return
        self._send(kind(table_id=table_id, deal_number=shown, review=result, re=re))

    def close(self) -> None:
        """The connection is gone: stop sending (a shared analysis goes on for the cache)."""
        if self._task is not None:
            self._task.cancel()
