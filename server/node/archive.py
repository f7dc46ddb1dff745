"""What a table hands the history database: its finished deals and, at its end, itself.

Every node that sees a table change (its own commit, another node's through
the store, a table it loads) asks ``Archive.seen`` what finished in it and
queues that in the history's outbox (``DealWriter``). So a deal is handed
over by the node that closed it, again by every node following the table,
by the node that deals the next one (it replaces the finished deal in the
store) and by any node that loads the table while the deal is over: a node
killed between its commit and its write leaves the deal in the store, where
the next to look finds it. The database stores each once (keyed by table id
and the deal's index among all the deals dealt, ``TableData.dealt``);
``DealWriter`` also skips what it already queued, so the copies cost no
write here.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncEngine

import engine
from server.history import (
    Accounts,
    DatabaseUnavailable,
    DealWriter,
    FinishedDeal,
    FinishedTable,
    Occupant,
    default_url,
    migrate,
    open_engine,
)
from server.queue.seats import CASUAL_TABLE, RATED_TABLE
from server.table.data import SeatData, TableData
from server.table.duplicate_deals import current_event_index

from .duplicate_recorder import DuplicateRecorder

log = logging.getLogger("tarot.history")
CLOSE_SECONDS = 5.0


class Archive:
    """The history outbox of this node, fed from the tables it sees."""

    def __init__(
        self, writer: DealWriter, engine: AsyncEngine | None = None, remembered: int = 4096
    ) -> None:
        self.writer = writer
        self.engine = engine  # disposed by ``close``
        # The results of duplicate events' deals (None: a writer with no engine of its own).
        self.duplicates = DuplicateRecorder(engine) if engine is not None else None
        # What this node has queued already (the most recent): a deal is seen at each of
        # the table's changes while it is over, and needs building (a replay) only once.
        self._queued: OrderedDict[tuple[str, int], None] = OrderedDict()
        self._remembered = remembered

    def _first_time(self, key: tuple[str, int]) -> bool:
        if key in self._queued:
            return False
        self._queued[key] = None
        if len(self._queued) > self._remembered:
            self._queued.popitem(last=False)
        return True

    def accounts(self) -> Accounts | None:
        """The accounts kept in the same database (None: a writer with no engine of its own)."""
        return Accounts(self.engine) if self.engine is not None else None

    @classmethod
    async def open(cls, url: str | None) -> Archive:
        """The history at ``url`` (None: ``default_url()``), migrated to head if it answers;
        if not, the node starts all the same and its writer migrates when it returns."""
        engine = open_engine(url or default_url())
        migrated = True
        try:
            await migrate(engine)
        except DatabaseUnavailable as e:
            log.warning("history: %s; deals wait in memory until it answers", e)
            migrated = False
        writer = DealWriter(engine, migrate_first=not migrated)
        writer.start()
        return cls(writer, engine)

    async def close(self, seconds: float = CLOSE_SECONDS) -> None:
        """Write what is queued (for ``seconds`` at most), then stop."""
        try:
            await asyncio.wait_for(self.writer.flush(), seconds)
            if self.duplicates is not None:
                await asyncio.wait_for(self.duplicates.settled(), seconds)
        except TimeoutError:
            pass
        if self.duplicates is not None:
            await self.duplicates.close()
        await self.writer.close()
        if self.engine is not None:
            await self.engine.dispose()

    def seen(
        self,
        before: TableData | None,
        before_state: engine.Deal | None,
        after: TableData,
        after_state: engine.Deal | None,
    ) -> None:
        """The table went from ``before`` to ``after`` (None: it was just loaded)."""
        try:
            self._seen(before, before_state, after, after_state)
        except Exception:  # the history must never break play: this runs after a commit
            log.exception("history: table %s: a finished deal was not queued", after.table_id)

    def _seen(
        self,
        before: TableData | None,
        before_state: engine.Deal | None,
        after: TableData,
        after_state: engine.Deal | None,
    ) -> None:
        # ``before``'s deal matters when this change dealt the next one over it.
        for data, state in ((before, before_state), (after, after_state)):
            if data is None or state is None or not state.is_over or data.dealt < 1:
                continue  # (``dealt`` 0: a table stored before it was kept; no key)
            if self._first_time((data.table_id, data.dealt - 1)):
                self.writer.submit(finished_deal(data, state))
                if data.duplicate is not None and self.duplicates is not None:
                    self.duplicates.finished(data, state)
        if after.status == "finished" and self._first_time((after.table_id, -1)):
            self.writer.submit(finished_table(after))


def _at(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def occupant(seat: SeatData, ai_level: str) -> Occupant:
    if seat.occupant == "human" and seat.account_id is not None:
        return Occupant(account_id=seat.account_id)
    if seat.occupant == "human":
        return Occupant(guest_name=seat.name or None)
    if seat.occupant == "ai":
        return Occupant(ai_level=ai_level)
    return Occupant()


def finished_deal(data: TableData, state: engine.Deal) -> FinishedDeal:
    """The table's current deal, over in ``state``."""
    deal = data.deal
    assert deal is not None
    finished = data.deal_over_ms or deal.started_ms
    return FinishedDeal(
        table_id=data.table_id,
        deal_number=data.dealt - 1,
        record=engine.to_record(state),
        sheet=engine.score(state).to_json(),
        started_at=_at(deal.started_ms or finished),
        finished_at=_at(finished),
        seats=tuple(occupant(s, data.options.ai_level) for s in data.seats),
        rated=may_rate(data),
        left=leavers(data),
        event_id=data.duplicate.event_id if data.duplicate is not None else None,
        event_deal=current_event_index(data),
    )


def leavers(data: TableData) -> tuple[tuple[int, int], ...]:
    """(seat, account) of each account that left a rated quick-play table's seat during
    its current deal (or just before it was dealt): the AI played the seat, the writer
    rates the leaver last (docs/RATINGS.md, "Quick play"). Only this one deal matches."""
    if data.options.name != RATED_TABLE:
        return ()
    return tuple(
        (seat, s.left_account_id)
        for seat, s in enumerate(data.seats)
        if s.occupant == "ai" and s.left_account_id is not None and s.left_deal == data.dealt - 1
    )


def may_rate(data: TableData) -> bool:
    """False for a casual quick-play table and a duplicate event's table: their deals are
    never rated (docs/RATINGS.md); an event's move its duplicate rating only, and a table
    rating moved by them would show results the open event hides."""
    return data.options.name != CASUAL_TABLE and data.duplicate is None


def finished_table(data: TableData) -> FinishedTable:
    """The finished table; its series (every played deal's sheet) is read from the stored
    deals when it is written (``DealWriter``): the store keeps only the last deal."""
    finished = data.deal_over_ms or data.created_ms
    return FinishedTable(
        table_id=data.table_id,
        deals_played=data.played,
        series=[],
        totals=[float(t) for t in data.totals],
        started_at=_at(data.created_ms or finished),
        finished_at=_at(finished),
    )
