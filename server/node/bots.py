"""Running AI decisions without blocking the event loop.

``random`` and ``basic`` decide in well under a millisecond and run inline;
``expert`` and ``strong`` run in a process pool, so no bot ever delays another
table's messages. A bot sees only its seat's view (``engine.view``).

The pool's workers are started in a thread, all at once, before its first job:
a worker's spawn forks and executes a new interpreter from the calling thread,
and on the event loop (the executor spawns on ``submit``) it stopped every
table for 40-140 ms (measured, the resource tracker's own spawn included) at a
node's first review or first expert move, and again at each worker after.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import multiprocessing
import os
import random
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import resource_tracker
from typing import TypeVar

import engine
from ai import make_bot

log = logging.getLogger("tarot.bots")

INLINE_LEVELS = frozenset({"random", "basic"})
PARENT_CHECK_SECONDS = 0.5
T = TypeVar("T")
R = TypeVar("R")


def decide(level: str, seat_view: engine.View, seed: str) -> engine.Action:
    """One decision."""
    return make_bot(level).choose(seat_view, random.Random(seed))


def timed_decide(level: str, seat_view: engine.View, seed: str) -> tuple[engine.Action, float]:
    """One decision and the seconds it took to think (the function the workers run)."""
    start = time.perf_counter()
    action = decide(level, seat_view, seed)
    return action, time.perf_counter() - start


def _start_worker(node_pid: int, niceness: int = 0) -> None:
    """In each worker: Ctrl-C is the node's to handle (it drains), not the workers'.

    A worker dies with its node, however the node died (``kill -9`` included):
    a watcher thread sees the parent change and ends the worker, and with the
    last worker gone the multiprocessing resource tracker ends too. ``niceness``
    lowers its CPU priority (deal reviews: they take only what the tables leave).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness:
        os.nice(niceness)
    threading.Thread(target=_die_with, args=(node_pid,), daemon=True).start()


def _die_with(node_pid: int) -> None:
    while os.getppid() == node_pid:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


QUIET_TRACKER = "ignore::UserWarning:multiprocessing.resource_tracker"


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker even where ``sys.stderr`` has no descriptor.

    The tracker (spawned with the first worker) is handed ``sys.stderr.fileno()``;
    a host that swaps the standard streams for objects answering -1 (textual,
    under ``tarot play``) made that spawn fail with "bad value(s) in
    fds_to_keep", and with it every worker. Without a stream to hand over, the
    tracker keeps descriptor 2, as any child does.
    """
    # The tracker outlives a node killed with SIGKILL and warns of the semaphores it then
    # cleans up, in a line of its own on the node's standard error (not JSON): it is
    # spawned with the node's warning options, which leave that warning out.
    if QUIET_TRACKER not in sys.warnoptions:
        sys.warnoptions.append(QUIET_TRACKER)
    try:
        usable = sys.stderr.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = True  # multiprocessing hands nothing over then
    if usable:
        resource_tracker.ensure_running()
        return
    with contextlib.redirect_stderr(io.StringIO()):
        resource_tracker.ensure_running()


def _budget_seconds(level: str, phase: str) -> float:
    bot = make_bot(level)
    budget = getattr(bot, "budget", None)
    if not isinstance(budget, float | int):
        return 0.0
    factor = 1.0 if phase == "play" else float(getattr(bot, "bid_factor", 1.0))
    return float(budget) * factor / 1000


class BotRunner:
    def __init__(self, workers: int = 1, niceness: int = 0) -> None:
        self._workers = max(1, workers)
        self._niceness = niceness
        self._pool: ProcessPoolExecutor | None = None
        self._starting: asyncio.Task[ProcessPoolExecutor] | None = None
        self.decisions = 0
        self.pooled = 0  # of which decided in a worker process
        self.restarts = 0  # pools replaced after a worker died
        self.seconds = 0.0
        self._slowest: dict[tuple[str, str], float] = {}

    def pace(self, level: str, phase: str, took: float) -> float:
        """The least time a decision of ``level`` in ``phase`` must appear to take.

        The bots that search (``expert``, ``strong``) take their budget over a
        real choice and no time over a forced one; shown as they come, their
        timing would tell a watcher when a seat had one legal card. Every such
        decision is held back to the level's budget for the phase (``strong``
        says it) or the slowest of the kind seen so far, whichever is longer.
        Inline levels decide in well under a millisecond either way.
        """
        if level in INLINE_LEVELS:
            return 0.0
        key = (level, phase)
        slowest = max(self._slowest.get(key, 0.0), took)
        self._slowest[key] = slowest
        return max(slowest, _budget_seconds(level, phase))

    async def decide(self, level: str, seat_view: engine.View, seed: str) -> engine.Action:
        return (await self.think(level, seat_view, seed))[0]

    async def think(
        self, level: str, seat_view: engine.View, seed: str
    ) -> tuple[engine.Action, float]:
        """A decision, and the seconds the bot thought: what ``pace`` is given. Not the
        wait for a worker (the pool's start, other tables' decisions queued before it):
        counted, one slow start paced every later move of the node's tables to it (a
        worker started under load took long enough that tables looked stuck)."""
        start = time.perf_counter()
        try:
            if level in INLINE_LEVELS:
                return timed_decide(level, seat_view, seed)
            self.pooled += 1
            return await self.run(_timed_decide_job, (level, seat_view, seed))
        finally:
            self.decisions += 1
            self.seconds += time.perf_counter() - start

    async def run(self, job: Callable[[T], R], arg: T) -> R:
        """Any other work for the worker processes (a deal review's decisions), off the loop."""
        loop = asyncio.get_running_loop()
        pool = await self._ready()
        try:
            return await loop.run_in_executor(pool, job, arg)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): that pool takes no more work.
            # A new one does, so the tables' AI goes on; the job is done again.
            log.warning("a bot worker died: starting new workers")
            self._replace(pool)
            return await loop.run_in_executor(await self._ready(), job, arg)

    async def _ready(self) -> ProcessPoolExecutor:
        """The pool, its workers started in a thread (see the module docstring)."""
        if self._pool is not None:
            return self._pool
        if self._starting is None:
            self._starting = asyncio.create_task(asyncio.to_thread(self._started_pool))
        starting = self._starting
        try:
            pool = await asyncio.shield(starting)  # one start, whoever waits for it
        except BrokenProcessPool:
            if self._starting is starting:
                self._starting = None  # the next job tries again
            raise
        if self._starting is starting:
            self._starting, self._pool = None, pool
        return self._pool or pool

    def _started_pool(self) -> ProcessPoolExecutor:
        # Spawned, not forked: a node has threads (asyncio's resolver, Redis),
        # and a fork of a threaded process can deadlock its child (and warns
        # from Python 3.12). The workers start once, on the first job.
        _start_resource_tracker()
        pool = ProcessPoolExecutor(
            self._workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(os.getpid(), self._niceness),
        )
        # The executor spawns a worker per job submitted while none is idle: as many
        # jobs as workers, at once, start them all here rather than on the loop later.
        try:
            for ready in [pool.submit(_ready_job) for _ in range(self._workers)]:
                ready.result()
        except BrokenProcessPool:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        return pool

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        if self._pool is broken:  # not already replaced by another table's decision
            broken.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            self.restarts += 1

    def close(self) -> None:
        starting, self._starting = self._starting, None
        if starting is not None:  # its pool, once started, shut down too
            starting.add_done_callback(_shut_down_started)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _shut_down_started(task: asyncio.Task[ProcessPoolExecutor]) -> None:
    if not task.cancelled() and task.exception() is None:
        task.result().shutdown(wait=False, cancel_futures=True)


def _ready_job() -> None:
    """A worker's first job: nothing; its start is the point."""


def _timed_decide_job(job: tuple[str, engine.View, str]) -> tuple[engine.Action, float]:
    return timed_decide(*job)
