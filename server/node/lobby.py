"""The lobby: which tables exist, who may create one, and when a table nobody sits at goes.

Cheap whatever the number of tables: the store keeps the lobby's lists, ordered
by creation, each table's summary beside it (``server.store.lobby_index``), so
``list_tables`` reads one page of one list: O(page size), not O(tables). The
tables this node runs are shown as they are now (seats, spectators).

Creating tables is bounded three ways (each 0 for no limit): the open tables
of one connection, of one client address on this node, and of the whole store
(its count read at most once per ``REFRESH_SECONDS``). A waiting table nobody
sits at is closed and removed ``empty_table_seconds`` after its creation.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from protocol import models as m
from server.clock import now_ms
from server.settings import Settings
from server.store import lobby_index as li
from server.store.base import StoreError, TableStore, unavailable
from server.table import request_keys
from server.table import transitions as tr
from server.table.refusals import TableError

from .moderation import Moderation
from .runtime import TableRuntime
from .tables import Tables

log = logging.getLogger("tarot.lobby")
REFRESH_SECONDS = 1.0
SWEEP_SECONDS = 5.0
PAGE_DEFAULT = 50
PENDING = "pending:"  # not a table id (":" is not allowed in one)


class Lobby:
    def __init__(
        self,
        store: TableStore,
        settings: Settings,
        tables: Tables,
        moderation: Moderation | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.tables = tables
        self.moderation = moderation or Moderation()  # a maintenance refuses new tables
        self._open_count = 0  # open tables, private ones too (the server-wide limit)
        self._pending = 0
        self._read_at = -REFRESH_SECONDS
        self._reading: asyncio.Lock = asyncio.Lock()
        self._by_address: dict[str, set[str]] = {}
        self._sweeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ the list

    async def _count(self) -> None:
        """The store's count of open tables, read again when older than REFRESH_SECONDS."""
        if time.monotonic() - self._read_at < REFRESH_SECONDS:
            return
        async with self._reading:  # many callers, one read
            if time.monotonic() - self._read_at >= REFRESH_SECONDS:
                try:
                    self._open_count = await self.store.lobby_count(li.LIVE)
                except StoreError as e:
                    raise unavailable(e) from e
                self._read_at = time.monotonic()

    async def page(self, query: m.ListTables) -> m.Tables:
        """One page of the open tables matching ``query``, oldest first."""
        listing = li.listing(query.open_seats, query.ai_level)
        after = li.member_of_cursor(query.after) if query.after is not None else ""
        limit = query.limit or PAGE_DEFAULT
        found: list[m.TableSummary] = []
        last = after
        while True:
            asked = limit + 1 - len(found)
            try:
                entries = await self.store.lobby_page(listing, after, asked)
            except StoreError as e:
                raise unavailable(e) from e
            for member, stored in entries:
                summary = self._current(li.table_of(member), stored, query)
                if summary is None:
                    continue
                if len(found) == limit:
                    return m.Tables(tables=found, next=li.cursor_of(last), re=query.id)
                found.append(summary)
                last = member
            if len(entries) < asked:
                return m.Tables(tables=found, next=None, re=query.id)
            after = entries[-1][0]

    def _current(
        self, table_id: str, stored: m.TableSummary | None, query: m.ListTables
    ) -> m.TableSummary | None:
        """The table's summary as this node knows it now, if it matches ``query``."""
        runtime = self.tables.get(table_id)
        if runtime is None:
            return stored
        if not self._matches(runtime, query):
            return None
        return li.lobby_summary(runtime.data, runtime.summary())

    @staticmethod
    def _matches(runtime: TableRuntime, query: m.ListTables) -> bool:
        data = runtime.data
        if not li.is_open(data):
            return False
        if query.ai_level is not None and data.options.ai_level != query.ai_level:
            return False
        return not query.open_seats or li.has_open_seat(data)

    # ------------------------------------------------------------ creating

    async def create(
        self, options: m.TableOptions, address: str, created: set[str], key: str | None = None
    ) -> TableRuntime:
        """A new table for a connection (``created``: the ids it made) from ``address``;
        with ``key``, the table it made already if it did (``request_keys``).

        The checks and the counts are made before the store is asked (no await in
        between): concurrent requests cannot all pass a limit that one of them fills.
        A creation in progress holds a place under a ``PENDING`` id.
        """
        settings = self.settings
        self.moderation.check_create()
        if key is not None:
            made = self.tables.get(request_keys.table_id_of_key(key))
            if made is not None and request_keys.made_with(made.data, key):
                request_keys.same_table(made.data, options)
                return made  # answered before: that answer was lost
        if settings.max_tables:
            await self._count()
        self._check(created, settings.tables_per_connection, "this connection")
        mine = self._by_address.setdefault(address, set())
        self._check(mine, settings.tables_per_address, f"address {address}")
        if settings.max_tables and self._open_count >= settings.max_tables:
            raise tr.TableRefused(
                "too_many_tables",
                f"the server has {settings.max_tables} open tables: join one, or retry later",
            )
        self._pending += 1
        place = f"{PENDING}{self._pending}"
        created.add(place)
        mine.add(place)
        self._open_count += 1
        try:
            runtime = await self.tables.create(options, key, now_ms())
        except BaseException:
            self._open_count -= 1
            raise
        finally:
            created.discard(place)
            mine.discard(place)
        created.add(runtime.table_id)
        mine.add(runtime.table_id)
        return runtime

    def _check(self, ids: set[str], limit: int, who: str) -> None:
        """Refuse when ``ids`` (forgetting the tables that are over) already hold ``limit``."""
        for table_id in list(ids):
            runtime = self.tables.get(table_id)
            if table_id.startswith(PENDING):
                continue
            if runtime is None or runtime.data.status == "finished":
                ids.discard(table_id)
        if limit and len(ids) >= limit:
            raise tr.TableRefused(
                "too_many_tables",
                f"{who} has {len(ids)} open tables, the most allowed: finish or leave one",
            )

    def forget_address(self, address: str) -> None:
        """An address with no open table left takes no room."""
        if not self._by_address.get(address, True):
            del self._by_address[address]

    # ------------------------------------------------------------ unattended tables

    def start(self) -> None:
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(min(SWEEP_SECONDS, self.settings.empty_table_seconds))
            try:
                await self.sweep()
            except (StoreError, TableError) as e:  # the store's outage is logged once
                log.debug("the lobby sweep waits for the store: %s", e)
            except Exception:  # a bug here must not stop the sweeps: log it, go on
                log.exception("the lobby sweep failed")

    async def sweep(self) -> int:
        """Close and remove the waiting tables nobody sat at in time. Returns how many."""
        empty_ms = int(self.settings.empty_table_seconds * 1000)
        before = li.created_before(now_ms() - empty_ms + 1)
        candidates = set(await self.store.lobby_ids(li.IDLE, before))
        local = [r.data for r in self.tables]
        candidates.update(t.table_id for t in local if tr.is_unattended(t, now_ms(), empty_ms))
        removed = 0
        for table_id in candidates:
            removed += await self._remove(table_id, empty_ms)
        if removed:
            self._read_at = -REFRESH_SECONDS
            for address in list(self._by_address):
                self._check(self._by_address[address], 0, address)
                self.forget_address(address)
        return removed

    async def _remove(self, table_id: str, empty_ms: int) -> int:
        try:
            runtime = await self.tables.runtime(table_id)
            await runtime.transact(lambda d, s: tr.abandon(d, s, now_ms(), empty_ms))
        except TableError:
            return 0  # someone sat down meanwhile, or the store is away: next sweep
        if runtime.data.status != "finished":
            return 0
        await self.tables.forget(runtime)
        with contextlib.suppress(StoreError):
            await self.store.delete(table_id)
        return 1
