"""A table's background work on the node holding its lease: AI turns, turn time-outs,
grace periods and the next deal.

The driver is a loop that sleeps until the table has work due (``due_in``),
does it through the runtime's ``transact``, and starts again; it is stopped
and restarted as the lease comes and goes. A failure is retried with a
growing pause; after ``FAILURES_REPORTED`` in a row the table's players are
told (an ``error`` with code ``internal``), once per run of failures, so a
broken driver never stalls a table in silence.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Protocol

import engine
from protocol import models as m
from server.clock import now_ms
from server.table import transitions as tr
from server.table.data import TableData
from server.table.duplicate_deals import decision_seed
from server.table.refusals import TableError

from .services import TableServices

log = logging.getLogger("tarot.table")
FAILURES_REPORTED = 3  # failures in a row before the players hear of it
RETRY_SECONDS = (0.05, 0.25, 1.0, 2.0)


class Driven(Protocol):
    """What the driver moves on: a table's runtime (``runtime.py``)."""

    services: TableServices
    data: TableData
    state: engine.Deal | None

    @property
    def table_id(self) -> str: ...

    async def transact(
        self, build: Callable[[TableData, engine.Deal | None], tr.Change]
    ) -> object: ...

    def tell_players(self, message: m.Model) -> None: ...


class Driver:
    def __init__(self, runtime: Driven) -> None:
        self.runtime = runtime
        self.kick = asyncio.Event()
        self.last_change = time.monotonic()
        self.failures = 0
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        if not self.running:
            self._task = asyncio.get_running_loop().create_task(self._drive())

    def stop(self) -> asyncio.Task[None] | None:
        """Cancel the loop; returns its task (to wait for), if it ran."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
        return task

    def changed(self) -> None:
        """The table changed: look again at what is due.

        Most changes leave nothing due (a human's turn without a clock): waking
        the loop to learn that cost a task step, a ``wait_for`` task and a timer
        on every commit. A loop asleep until a deadline that no longer holds
        wakes at it, looks again and sleeps on, which is harmless.
        """
        self.last_change = time.monotonic()
        if self.runtime.data.status == "finished" or self.due_in() is not None:
            self.kick.set()

    async def _drive(self) -> None:
        runtime = self.runtime
        while runtime.data.status != "finished":
            self.kick.clear()
            delay = self.due_in()
            if delay is not None and delay <= 0:
                await self._attempt()
                continue
            try:
                await asyncio.wait_for(self.kick.wait(), timeout=delay)
            except TimeoutError:
                pass

    async def _attempt(self) -> None:
        runtime = self.runtime
        try:
            await self.do_due()
            self.failures = 0
        except TableError as e:
            log.info("table %s: driver move refused: %s", runtime.table_id, e.message)
            await asyncio.sleep(RETRY_SECONDS[0])
        except Exception as e:  # a bug or a broken bot pool: retried, and reported
            self.failures += 1
            log.exception(
                "table %s: the driver failed (%d in a row)", runtime.table_id, self.failures
            )
            if self.failures == FAILURES_REPORTED:
                runtime.tell_players(
                    m.Error(
                        code="internal",
                        message=f"the server cannot move this table on ({type(e).__name__}); "
                        "it keeps trying",
                    )
                )
            await asyncio.sleep(RETRY_SECONDS[min(self.failures, len(RETRY_SECONDS) - 1)])

    def due_in(self) -> float | None:
        """Seconds until the driver has work (<= 0: now; None: wait for a change)."""
        runtime = self.runtime
        data, state, settings = runtime.data, runtime.state, runtime.services.settings
        if data.status != "playing":
            return None
        if state is None:
            return 0
        now = now_ms()
        since = time.monotonic() - self.last_change
        if state.is_over:
            if not tr.anyone_present(data):
                return None  # nobody to play for: wait until a player comes back
            if state.cancelled or tr.everyone_ready(data, now):
                return settings.ai_pause_seconds - since
            if data.next_deal_ms is None:  # stored before the wait was kept with the table
                over = data.deal_over_ms or now
                wait = (over + settings.next_deal_seconds * 1000 - now) / 1000
            else:
                wait = (data.next_deal_ms - now) / 1000
            return min(wait, self._grace_left(now))
        seat = data.seats[state.to_act]
        if seat.occupant == "ai":
            return settings.ai_pause_seconds - since
        due: float | None = None
        if seat.dropped_at_ms is not None:
            due = (seat.dropped_at_ms + data.options.grace_seconds * 1000 - now) / 1000
        if data.turn_deadline_ms is not None:
            timeout = (data.turn_deadline_ms - now) / 1000
            due = timeout if due is None else min(due, timeout)
        return due

    def _grace_left(self, now: int) -> float:
        """Seconds until a dropped human's grace period ends (infinity if none)."""
        data = self.runtime.data
        grace = data.options.grace_seconds * 1000
        ends = [
            s.dropped_at_ms + grace - now
            for s in data.seats
            if s.occupant == "human"
            and s.dropped_at_ms is not None
            and s.dropped_at_ms + grace > now
        ]
        return min(ends) / 1000 if ends else float("inf")

    async def do_due(self) -> None:
        runtime = self.runtime
        state = runtime.state
        if state is None or state.is_over:
            await runtime.transact(lambda d, s: tr.next_deal(d, s, now_ms()))
            return
        version, seat = runtime.data.version, state.to_act
        seed = decision_seed(runtime.data, f"{runtime.table_id}:{version}")
        action = await self._decide(state, seat, seed)
        if runtime.data.version != version:
            return  # the table moved on while the bot thought (e.g. the player came back)
        await runtime.transact(lambda d, s: tr.act(d, s, action, now_ms()))

    async def _decide(self, state: engine.Deal, seat: int, seed: str) -> engine.Action:
        """The AI's move for ``seat``, at a pace that does not tell its hand.

        A forced move (one legal card) is found at once, a real choice takes the
        bot its whole budget: a watcher timing the moves would learn when it was
        forced (a singleton, a void). Every decision of a pooled level takes at
        least the longest any of its decisions of that kind thought so far.
        """
        runtime = self.runtime
        level = runtime.data.options.ai_level
        start = time.perf_counter()
        view, fixed = engine.view(state, seat), runtime.data.duplicate is not None
        action, thought = await runtime.services.bots.think(level, view, seed, fixed)
        took = time.perf_counter() - start
        runtime.services.metrics.ai_seconds.observe(took)
        floor = runtime.services.bots.pace(level, state.phase.value, thought)
        if floor > took:
            await asyncio.sleep(floor - took)
        return action
