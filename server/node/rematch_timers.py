"""Rematch offers closed on time (docs/PROTOCOL.md, section 17; the rules:
server/table/rematch.py).

Every node that sees a finished table with an open offer (its own commit,
another node's through the store, a load) keeps a timer for the offer's
deadline. When it rings, the node commits ``rematch.expire`` to the old
table (check-and-set: of all the nodes' timers, one closes it, the others
find it closed and change nothing) and, if that commit was its own, starts
the new table: the AI takes the seats not taken.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

import engine
from server.clock import now_ms
from server.table import rematch
from server.table import transitions as tr
from server.table.data import TableData
from server.table.refusals import TableError, TableRefused

from .runtime import TableRuntime

log = logging.getLogger("tarot.table")


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
    """One timer per open rematch offer this node has seen."""

    def __init__(self, tables: Loader) -> None:
        self.tables = tables
        self._timers: dict[str, asyncio.Task[None]] = {}

    def seen(
        self,
        before: TableData | None,
        before_state: engine.Deal | None,
        after: TableData,
        after_state: engine.Deal | None,
    ) -> None:
        """The table went from ``before`` to ``after``: time its offer if one opened."""
        due = rematch.deadline(after)
        if due is None or after.table_id in self._timers:
            return
        task = asyncio.get_running_loop().create_task(self._close_at(after.table_id, due))
        self._timers[after.table_id] = task
        task.add_done_callback(lambda _: self._timers.pop(after.table_id, None))

    async def _close_at(self, table_id: str, due_ms: int) -> None:
        await asyncio.sleep(max(0.0, (due_ms - now_ms()) / 1000))
        try:
            runtime = await self.tables.runtime(table_id)
            change = await runtime.transact(lambda d, s: rematch.expire(d, s, now_ms()))
            offer = change.data.rematch
            if change.events and offer is not None and rematch.starts(change.data):
                await start_rematch_table(await self.tables.runtime(offer.table_id))
        except TableError as e:  # another node's timer, or an answer, may have been first
            log.info("table %s: the rematch offer was not closed here: %s", table_id, e.message)
        except Exception:  # a timer must not die in silence; another node's may close it
            log.exception("table %s: the rematch offer's timer failed", table_id)

    async def stop(self) -> None:
        timers = list(self._timers.values())
        for task in timers:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*timers, return_exceptions=True)
