"""Rematch offers closed on time (docs/PROTOCOL.md, section 17; the rules:
server/table/rematch.py).

Every node that sees a finished table with an open offer (its own commit,
another node's through the store, a load) keeps a timer for the offer's
deadline. When it rings, the node commits ``rematch.expire`` to the old
table (check-and-set: of all the nodes' timers, one closes it, the others
find it closed and change nothing) and, if that commit was its own, starts
the new table: the AI takes the seats not taken.

A timer dies with its node, and the old table may be followed by no other node
(those who accepted follow the new table; the silent ones may never come back):
so each offer is also written to the store's reminders (``Shared.remind``), and
every node closes the offers overdue by ``OVERDUE_MS`` that no timer closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

import engine
from server.clock import now_ms
from server.store.base import StoreError
from server.store.shared import Shared
from server.table import rematch
from server.table import transitions as tr
from server.table.data import TableData
from server.table.refusals import TableError, TableRefused

from .runtime import TableRuntime

log = logging.getLogger("tarot.table")
SWEEP_SECONDS = 1.0  # how often a node looks for the offers no timer closed
OVERDUE_MS = 2000  # ... past their deadline (a timer still there closes them first)
REMINDER = "rematch:"  # + the old table's id: its offer's reminder in ``Shared``


class Loader(Protocol):
    async def runtime(self, table_id: str) -> TableRuntime: ...


async def start_rematch_table(new_runtime: TableRuntime) -> None:
    """Start the rematch's table: the AI takes every seat not taken."""
    try:
        await new_runtime.transact(lambda d, s: tr.start(d, s, now_ms()))
    except TableRefused as e:
        if e.code != "already_started":  # a player there started it first
            raise


class RematchTimers:
    """One timer per open rematch offer this node has seen, and the sweep of the offers
    whose timers went with their node."""

    def __init__(self, tables: Loader, shared: Shared) -> None:
        self.tables = tables
        self.shared = shared
        self._timers: dict[str, asyncio.Task[None]] = {}
        self._sweep: asyncio.Task[None] | None = None
        self._stopped = False

    def start(self) -> None:
        self._sweep = asyncio.get_running_loop().create_task(self._sweep_forever())

    def seen(
        self,
        before: TableData | None,
        before_state: engine.Deal | None,
        after: TableData,
        after_state: engine.Deal | None,
    ) -> None:
        """The table went from ``before`` to ``after``: time its offer if one opened."""
        due = rematch.deadline(after)
        if due is None or after.table_id in self._timers or self._stopped:
            return  # a node that stops starts no timer: its tables are being let go
        task = asyncio.get_running_loop().create_task(self._close_at(after.table_id, due))
        self._timers[after.table_id] = task
        task.add_done_callback(lambda _: self._timers.pop(after.table_id, None))

    async def _close_at(self, table_id: str, due_ms: int) -> None:
        try:
            await self.shared.remind(REMINDER + table_id, due_ms)
        except StoreError as e:  # this timer still closes it, unless the node goes
            log.warning("table %s: the rematch offer's reminder not kept: %s", table_id, e)
        await asyncio.sleep(max(0.0, (due_ms - now_ms()) / 1000))
        await self._close(table_id)

    async def _close(self, table_id: str) -> None:
        """Close the offer of ``table_id`` if it is due, start its new table if that was us;
        then its reminder goes (an offer closed, answered by all, or a table lost)."""
        try:
            runtime = await self.tables.runtime(table_id)
            change = await runtime.transact(lambda d, s: rematch.expire(d, s, now_ms()))
            offer = change.data.rematch
            if change.events and offer is not None and rematch.starts(change.data):
                await start_rematch_table(await self.tables.runtime(offer.table_id))
            if rematch.deadline(change.data) is not None:
                return  # not due by this node's clock: the reminder stays
        except TableError as e:  # another node's timer, or an answer, may have been first
            log.info("table %s: the rematch offer was not closed here: %s", table_id, e.message)
            if e.code in ("unavailable", "outcome_unknown"):
                return  # the reminder stays: a sweep tries again
        except Exception:  # a timer must not die in silence; another node's may close it
            log.exception("table %s: the rematch offer's timer failed", table_id)
            return
        try:
            await self.shared.forget(REMINDER + table_id)
        except StoreError as e:  # a sweep finds it closed, and forgets it then
            log.debug("table %s: the rematch offer's reminder not forgotten: %s", table_id, e)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                overdue = await self.shared.due(REMINDER, now_ms() - OVERDUE_MS)
            except StoreError as e:
                log.debug("the rematch offers' reminders not read: %s", e)
                continue
            for name in overdue:
                table_id = name.removeprefix(REMINDER)
                if table_id not in self._timers:
                    await self._close(table_id)

    async def stop(self) -> None:
        self._stopped = True
        tasks = list(self._timers.values())
        if self._sweep is not None:
            tasks.append(self._sweep)
        for task in tasks:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*tasks, return_exceptions=True)
