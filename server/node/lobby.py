"""The lobby: which tables exist, who may create one, and when a table nobody sits at goes.

Cheap whatever the number of tables: the store's list (every node's tables)
is read at most once per ``REFRESH_SECONDS`` however many connections ask,
kept sorted, and each ``list_tables`` filters it and answers one page. The
tables this node runs are shown as they are now (seats, spectators).

Creating tables is bounded three ways (each 0 for no limit): the open tables
of one connection, of one client address on this node, and of the whole store.
A waiting table nobody sits at is closed and removed ``empty_table_seconds``
after its creation.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import logging
import time

from protocol import models as m
from server.clock import now_ms
from server.settings import Settings
from server.store.base import StoreError, TableStore, unavailable
from server.table import request_keys
from server.table import transitions as tr
from server.table.data import TableData
from server.table.refusals import TableError

from .moderation import Moderation
from .runtime import TableRuntime
from .tables import Tables

log = logging.getLogger("tarot.lobby")
REFRESH_SECONDS = 1.0
SWEEP_SECONDS = 5.0
PAGE_DEFAULT = 50
PENDING = "pending:"  # not a table id (":" is not allowed in one)

Key = tuple[int, str]


def key_of(data: TableData) -> Key:
    return (data.created_ms, data.table_id)


def cursor_of(key: Key) -> str:
    return f"{key[0]}.{key[1]}"


def key_of_cursor(cursor: str) -> Key:
    created, _, table_id = cursor.partition(".")
    if not created.isdigit() or not table_id:
        raise tr.TableRefused("bad_cursor", f"{cursor!r} is not a lobby cursor from this server")
    return (int(created), table_id)


def is_open(data: TableData) -> bool:
    """Listed: public and not finished."""
    return not data.options.private and data.status != "finished"


def has_open_seat(data: TableData) -> bool:
    """A seat a newcomer may take now: an empty one, or the AI's between deals."""
    if data.status == "waiting":
        return any(s.occupant == "empty" for s in data.seats)
    between_deals = data.deal is None or data.phase == "done"
    return between_deals and any(s.occupant != "human" for s in data.seats)


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
        self._tables: list[TableData] = []  # the open tables, sorted by key_of
        self._keys: list[Key] = []
        self._waiting: list[TableData] = []  # every waiting table, private ones too (sweep)
        self._open_count = 0  # open tables, private ones too (the server-wide limit)
        self._pending = 0
        self._read_at = -REFRESH_SECONDS
        self._reading: asyncio.Lock = asyncio.Lock()
        self._by_address: dict[str, set[str]] = {}
        self._sweeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ the list

    async def _fresh(self) -> list[TableData]:
        """The store's open tables, read again when older than REFRESH_SECONDS."""
        if time.monotonic() - self._read_at < REFRESH_SECONDS:
            return self._tables
        async with self._reading:  # many callers, one read
            if time.monotonic() - self._read_at >= REFRESH_SECONDS:
                try:
                    tables = await self.store.list_tables()
                except StoreError as e:
                    raise unavailable(e) from e
                self._tables = sorted((t for t in tables if is_open(t)), key=key_of)
                self._keys = [key_of(t) for t in self._tables]
                self._waiting = [t for t in tables if t.status == "waiting"]
                self._open_count = sum(1 for t in tables if t.status != "finished")
                self._read_at = time.monotonic()
        return self._tables

    def _current(self, data: TableData) -> TableData:
        runtime = self.tables.get(data.table_id)
        return runtime.data if runtime is not None else data

    async def page(self, query: m.ListTables) -> m.Tables:
        """One page of the open tables matching ``query``, oldest first."""
        tables = await self._fresh()
        start = 0
        if query.after is not None:
            start = bisect.bisect_right(self._keys, key_of_cursor(query.after))
        limit = query.limit or PAGE_DEFAULT
        found: list[m.TableSummary] = []
        last: Key | None = None
        for data in tables[start:]:
            current = self._current(data)
            if not self._matches(current, query):
                continue
            if len(found) == limit:
                return m.Tables(tables=found, next=cursor_of(last) if last else None, re=query.id)
            found.append(self._summary(current))
            last = key_of(current)
        return m.Tables(tables=found, next=None, re=query.id)

    @staticmethod
    def _matches(data: TableData, query: m.ListTables) -> bool:
        if not is_open(data):
            return False
        if query.ai_level is not None and data.options.ai_level != query.ai_level:
            return False
        return not query.open_seats or has_open_seat(data)

    def _summary(self, data: TableData) -> m.TableSummary:
        runtime = self.tables.get(data.table_id)
        return runtime.summary() if runtime is not None else data.summary()

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
            await self._fresh()
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
        self._waiting.append(runtime.data)
        at = bisect.bisect_left(self._keys, key_of(runtime.data))
        listed = self._keys[at : at + 1] == [key_of(runtime.data)]  # made by a first try
        if is_open(runtime.data) and not listed:  # listed at once here, before the next read
            self._keys.insert(at, key_of(runtime.data))
            self._tables.insert(at, runtime.data)
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
        await self._fresh()
        candidates = [t for t in self._waiting if tr.is_unattended(t, now_ms(), empty_ms)]
        local = [r.data for r in self.tables]
        candidates += [t for t in local if tr.is_unattended(t, now_ms(), empty_ms)]
        removed = 0
        for table_id in {t.table_id for t in candidates}:
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
