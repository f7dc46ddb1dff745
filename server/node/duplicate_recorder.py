"""Each finished deal of a duplicate event's table, recorded as its entries' results.

``Archive.seen`` hands every finished deal of a table to the history; a deal of a
duplicate table (``TableData.duplicate``) is also handed here, once per node: each
seat that plays for an entry gets its result (the sheet's score for the seat, the
contract, the stored deal it was) recorded by ``record_result``, in order, by one
background task. A ``tables`` event's AI seat is entered at its first result and
found again by the results of its table and seat (``table_entry``). A result
recorded twice (by two nodes following the table) is recorded once: the history
takes the same result again as a no-op.

``settled`` waits until what was handed in is recorded: an entrant asking for their
next deal right after one ends is given the deal after it, not the same again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

import engine
from server.history import DatabaseUnavailable, EventResult, HistoryError, enter_event
from server.history.duplicate_play import record_result, table_entry
from server.table.data import DuplicateTable, TableData
from server.table.duplicate_deals import counts_for, current_event_index

log = logging.getLogger("tarot.duplicate")
RETRY_SECONDS = (0.2, 1.0, 5.0, 15.0)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result on one deal of a duplicate table, to record."""

    planned: DuplicateTable
    table_id: str
    seat: int
    entry_id: int | None  # None: a tables event's AI seat, entered at its first result
    ai_level: str
    result: EventResult


def seat_results(data: TableData, state: engine.Deal) -> list[SeatResult]:
    """The results a finished deal of a duplicate table makes, one per seat that counts."""
    planned, index = data.duplicate, current_event_index(data)
    if planned is None or index is None or data.dealt < 1:
        return []
    sheet = engine.score(state)
    contract = None if sheet.status == "cancelled" else sheet.contract.code
    made = []
    for seat in range(4):
        entry = planned.entries[seat]
        if not counts_for(data, seat) or (entry is None and planned.kind == "robot"):
            continue
        result = EventResult(
            entry_id=entry or 0,
            deal_index=index,
            seat=seat,
            score=sheet.scores[seat],
            contract=contract,
            table_id=data.table_id,
            deal_number=data.dealt - 1,
        )
        made.append(SeatResult(planned, data.table_id, seat, entry, data.options.ai_level, result))
    return made


class DuplicateRecorder:
    """Records the results of duplicate tables' deals in the background, in order."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._queue: asyncio.Queue[SeatResult] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._ai_entries: dict[tuple[str, int], int] = {}
        self.recorded = 0

    def finished(self, data: TableData, state: engine.Deal) -> None:
        """A duplicate table's deal is over (``Archive.seen``, once per node)."""
        for made in seat_results(data, state):
            self._queue.put_nowait(made)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._record_all())

    async def settled(self) -> None:
        """Until everything handed in so far is recorded (or given up)."""
        await self._queue.join()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _record_all(self) -> None:
        while True:
            made = await self._queue.get()
            try:
                await self._record(made)
            finally:
                self._queue.task_done()

    async def _record(self, made: SeatResult) -> None:
        for pause in (*RETRY_SECONDS, None):
            try:
                entry = made.entry_id or await self._ai_entry(made)
                result = made.result
                await record_result(self.engine, _with_entry(result, entry))
                self.recorded += 1
                return
            except DatabaseUnavailable as e:
                if pause is None:
                    log.error(
                        "duplicate result of %s seat %s lost: %s", made.table_id, made.seat, e
                    )
                    return
                await asyncio.sleep(pause)
            except HistoryError as e:  # the event closed meanwhile, a result out of order
                log.warning(
                    "duplicate result of %s seat %s refused: %s", made.table_id, made.seat, e
                )
                return

    async def _ai_entry(self, made: SeatResult) -> int:
        """The entry of a tables event's AI seat: found by its table and seat, or made."""
        key = (made.table_id, made.seat)
        if key not in self._ai_entries:
            found = await table_entry(self.engine, made.planned.event_id, made.table_id, made.seat)
            if found is None:
                found = await enter_event(
                    self.engine, made.planned.event_id, ai_level=made.ai_level
                )
            self._ai_entries[key] = found
        return self._ai_entries[key]


def _with_entry(result: EventResult, entry_id: int) -> EventResult:
    return EventResult(
        entry_id,
        result.deal_index,
        result.seat,
        result.score,
        result.contract,
        result.table_id,
        result.deal_number,
    )
