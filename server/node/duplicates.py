"""Duplicate events on a node: their tables, the daily robot event, closing and scoring.

- ``robot_table``: a robot event's entrant plays their next deal at a table of
  their own, made for it: private (never listed, never watched), seat 0 theirs,
  the three others the AI at ``Settings.duplicate_ai_level`` (``strong``), one
  deal, dealt from the event's seed (``TableData.duplicate``). An entrant whose
  table is still playing their deal is seated there again, not given another.
- ``event_table``: a ``tables`` event's table of four, listed in the lobby under
  the event's name, which plays every deal of the event.

One table per entrant and deal, on every node that shares the store: a robot
table and an entrant's own table of four are made with a key (``request_keys``,
from the event's secret seed, the entry and the deal), so a second ask, on any
connection or node, finds the table the first one made. A ``tables`` entrant
plays at one table: ``claim`` holds it in the store (``Shared.claim``) for the
entry until the event closes, let go only once the entrant left it unstarted.
- ``run_round``: makes the day's robot event (``duplicate_daily_deals`` deals,
  00:00-24:00 UTC, when that setting is not 0) if no node did, and scores each
  event past its close (``close_event``: one node scores it, the others find it
  scored). Every ``ROUND_SECONDS`` while the node runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from datetime import UTC, datetime, timedelta
from typing import cast

from sqlalchemy.ext.asyncio import AsyncEngine

from protocol import models as m
from server.clock import now_ms
from server.duplicate import ROBOT_SEAT, DuplicateEvent, event_deals
from server.history import HistoryError, StoredEvent, close_event, create_event
from server.history.duplicate_listing import due_to_close, event_named
from server.settings import Settings
from server.store.base import StoreError, unavailable
from server.table.data import DuplicateDeal, DuplicateTable
from server.table.refusals import TableError
from server.table.seating import seat_of_account

from .runtime import TableRuntime
from .tables import Tables

log = logging.getLogger("tarot.duplicate")
ROUND_SECONDS = 60.0
DAILY_NAME = "Daily {day}"
ROBOT_GRACE_SECONDS = 120  # an entrant away this long: the AI plays on for them


def event_plan(stored: StoredEvent, first: int, count: int) -> list[DuplicateDeal]:
    """Deals ``first`` to ``first + count - 1`` of the event, as a table deals them."""
    deals = event_deals(stored.event)[first : first + count]
    return [DuplicateDeal(index=d.index, dealer=d.dealer, seed=d.seed) for d in deals]


def closes_ms(stored: StoredEvent) -> int:
    return int(stored.event.closes.timestamp() * 1000)


def table_key(stored: StoredEvent, entry_id: int, index: int | None = None) -> str:
    """The creation key of the entry's table: for deal ``index`` of a robot event, or its
    own table of four (None). From the event's secret seed: nobody else may guess it."""
    what = f"{stored.id}\0{entry_id}\0{'' if index is None else index}".encode()
    digest = hashlib.sha256(b"tarot-duplicate-table\0" + stored.event.seed + b"\0" + what)
    return "duplicate-" + digest.hexdigest()[:40]


class DuplicateTables:
    """The node's part of duplicate events (``Node.duplicates``, with a history only)."""

    def __init__(self, engine: AsyncEngine, tables: Tables, settings: Settings) -> None:
        self.engine = engine
        self.tables = tables
        self.settings = settings
        self._playing: dict[int, str] = {}  # a robot entry's table still playing its deal
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ tables

    async def robot_table(self, stored: StoredEvent, entry_id: int, index: int) -> TableRuntime:
        """A new table for the entry's deal ``index`` of a robot event."""
        event = stored.event
        options = m.TableOptions(
            name=f"{event.name} · {index + 1}/{event.deals}"[:60],
            deals=1,
            ai_level=cast(m.AiLevel, self.settings.duplicate_ai_level),
            grace_seconds=ROBOT_GRACE_SECONDS,
            private=True,
        )
        planned = DuplicateTable(
            event_id=stored.id,
            kind="robot",
            deals=event_plan(stored, index, 1),
            entries=[entry_id if seat == ROBOT_SEAT else None for seat in range(4)],
            closes_ms=closes_ms(stored),
        )
        key = table_key(stored, entry_id, index)  # made once, whoever asks
        return await self.tables.create(options, key, now_ms(), planned)

    def playing(self, entry_id: int, table_id: str) -> None:
        """The entry was seated at ``table_id`` for the event: its next ``duplicate_play``
        takes it back there while the table plays."""
        self._playing[entry_id] = table_id

    def forget(self, entry_id: int) -> None:
        """The entry no longer plays at the table it was seated at (it left before the start)."""
        self._playing.pop(entry_id, None)

    async def table_in_play(self, entry_id: int) -> TableRuntime | None:
        """The robot table where the entry's deal is still being played, if any."""
        table_id = self._playing.get(entry_id)
        if table_id is None:
            return None
        try:
            runtime = await self.tables.runtime(table_id)
        except TableError:
            runtime = None
        if runtime is None or runtime.data.status == "finished":
            self._playing.pop(entry_id, None)
            return None
        return runtime

    async def event_table(
        self, stored: StoredEvent, entry_id: int, again: bool = False
    ) -> TableRuntime:
        """The entry's own table of four for a ``tables`` event (made by its first ask; a
        new one, ``again``, once that one started without it): it plays every deal of the
        event."""
        event = stored.event
        options = m.TableOptions(
            name=event.name,
            deals=event.deals,
            ai_level=cast(m.AiLevel, self.settings.duplicate_ai_level),
        )
        planned = DuplicateTable(
            event_id=stored.id,
            kind="tables",
            deals=event_plan(stored, 0, event.deals),
            closes_ms=closes_ms(stored),
        )
        key = None if again else table_key(stored, entry_id)
        return await self.tables.create(options, key, now_ms(), planned)

    async def claim(
        self, stored: StoredEvent, entry_id: int, account_id: int, table_id: str
    ) -> str | None:
        """Make ``table_id`` the one table the entry plays the ``tables`` event at; the other
        table it holds a seat at (or played at) if there is one. Asked once the entrant
        is seated at ``table_id``: a claim always names a table its entrant sat at."""
        shared = self.tables.store.shared()
        name = f"duplicate:{stored.id}:{entry_id}"
        ttl_ms = closes_ms(stored) - now_ms() + 3_600_000  # past the close: no more play
        try:
            for _ in range(3):
                held = await shared.claim(name, table_id, ttl_ms)
                if held == table_id:
                    return None
                if await self._plays_at(held, account_id, entry_id):
                    return held
                await shared.release(name, held)  # it left that table unstarted: free again
        except StoreError as e:
            raise unavailable(e) from e
        return held

    async def _plays_at(self, table_id: str, account_id: int, entry_id: int) -> bool:
        """The account holds a seat at ``table_id``, or the table started with the entry
        (its seat is kept for it through the event, the AI's once it left)."""
        data = await self.tables.store.load(table_id)  # the store's, not a follower's copy
        if data is None:
            return False
        if seat_of_account(data, account_id) is not None:
            return True
        planned = data.duplicate
        return data.status != "waiting" and planned is not None and entry_id in planned.entries

    async def seated_at(self, stored: StoredEvent, account_id: int) -> str | None:
        """A table of the event, not finished, where the account holds a seat (on any node:
        the store's account index)."""
        try:
            tables = await self.tables.store.account_tables(account_id)
        except StoreError as e:
            raise unavailable(e) from e
        for data in tables:
            planned = data.duplicate
            if planned is not None and planned.event_id == stored.id:
                if data.status != "finished" and seat_of_account(data, account_id) is not None:
                    return data.table_id
        return None

    # ------------------------------------------------------------ the daily round

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._rounds())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _rounds(self) -> None:
        while True:
            try:
                await self.run_round()
            except HistoryError as e:
                log.warning("duplicate events: %s", e)
            except Exception:  # a bug here must not stop the rounds: log it, go on
                log.exception("the duplicate events' round failed")
            await asyncio.sleep(ROUND_SECONDS)

    async def run_round(self, now: datetime | None = None) -> None:
        """The day's robot event made if it is due, every event past its close scored."""
        moment = now or datetime.now(UTC)
        if self.settings.duplicate_daily_deals:
            await make_daily(self.engine, self.settings.duplicate_daily_deals, moment)
        for event_id in await due_to_close(self.engine, now=moment):
            scores = await close_event(self.engine, event_id, now=moment)
            if scores is not None:
                log.info("duplicate event %s scored: %d entries", event_id, len(scores.standings))


async def make_daily(engine: AsyncEngine, deals: int, now: datetime) -> int | None:
    """The robot event of ``now``'s day (UTC), made unless it exists; its id if made."""
    opens = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    name = DAILY_NAME.format(day=opens.date().isoformat())
    if await event_named(engine, name, opens) is not None:
        return None
    event = DuplicateEvent(name, secrets.token_bytes(32), deals, opens, opens + timedelta(days=1))
    return await create_event(engine, event, now=now)
