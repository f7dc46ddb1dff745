"""The tables this node has loaded: one runtime per table, loaded once, let go when done.

A node loads a table's runtime on first use (a join, a watch, a resume, the
lobby's sweep), follows its committed changes through the store's
subscription, and lets it go when it finishes, when the store lost it, or when
nobody here follows it any more (``unload_idle``). Which of them this node
drives is the leases' business (``leases.py``): a loaded table is handed to
``on_loaded`` so that they can take it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterator

from protocol import models as m
from server.store.base import Listener, StaleVersion, StoreError, unavailable
from server.table import request_keys
from server.table import transitions as tr
from server.table.commits import Update
from server.table.data import (
    DuplicateTable,
    TableData,
    new_table_id,
    next_commits,
    table_of_token,
)

from .runtime import TableRuntime, TableServices

log = logging.getLogger("tarot.node")
LOST_HEALTH_SECONDS = 60.0  # how long ``/readyz`` reports a table the store lost


class Tables:
    """The runtimes of the tables loaded on this node, by id."""

    def __init__(
        self,
        services: TableServices,
        next_deal_seconds: float,
        on_loaded: Callable[[TableRuntime], Awaitable[None]],
        on_created: Callable[[], None] = lambda: None,
        on_lost: Callable[[], None] = lambda: None,
    ) -> None:
        # The runtimes' services report a lost table back here.
        self.services = TableServices(
            services.store,
            services.settings,
            services.metrics,
            services.bots,
            self.lost,
            services.archive,
        )
        self.store = services.store
        self._next_deal_seconds = next_deal_seconds
        self._on_loaded = on_loaded
        self._on_created = on_created
        self._on_lost = on_lost
        self.runtimes: dict[str, TableRuntime] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._waiting: dict[str, int] = {}  # callers of ``runtime`` per table id in _loading
        self._listeners: dict[str, Listener] = {}
        self._forgetting: set[asyncio.Task[None]] = set()
        self.lost_at: float | None = None  # when the store was last found to have lost a table

    def __iter__(self) -> Iterator[TableRuntime]:
        return iter(list(self.runtimes.values()))

    def __len__(self) -> int:
        return len(self.runtimes)

    def get(self, table_id: str) -> TableRuntime | None:
        """The runtime of a table if it is loaded here (no store round trip)."""
        return self.runtimes.get(table_id)

    async def runtime(self, table_id: str) -> TableRuntime:
        """The runtime of a table, loaded from the store on first use."""
        runtime = self.runtimes.get(table_id)
        if runtime is not None:
            return runtime
        # One load per table at a time; the lock lives only while someone waits on
        # it, so refused lookups (unknown ids, forged tokens) leave nothing behind.
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        self._waiting[table_id] = self._waiting.get(table_id, 0) + 1
        try:
            async with lock:
                runtime = self.runtimes.get(table_id)
                if runtime is not None:
                    return runtime
                try:
                    data = await self.store.load(table_id)
                except StoreError as e:
                    raise unavailable(e) from e
                if data is None:
                    raise tr.TableRefused("unknown_table", f"no table {table_id!r}")
                return await self._add(data)
        finally:
            self._waiting[table_id] -= 1
            if not self._waiting[table_id]:
                del self._waiting[table_id]
                del self._loading[table_id]

    async def runtime_of_token(self, token: str) -> TableRuntime:
        return await self.runtime(table_of_token(token))

    async def _add(self, data: TableData) -> TableRuntime:
        runtime = TableRuntime(self.services, data)
        self.runtimes[data.table_id] = runtime

        def listener(update: Update) -> None:
            runtime.apply_update(update)

        self._listeners[data.table_id] = listener
        try:
            await self.store.subscribe(data.table_id, listener)
            await runtime.reload(data.version)  # a change may have landed before it
        except StoreError as e:
            log.warning("cannot follow table %s: %s", data.table_id, e)
        await self._on_loaded(runtime)
        return runtime

    async def create(
        self,
        options: m.TableOptions,
        key: str | None,
        created_ms: int,
        duplicate: DuplicateTable | None = None,
    ) -> TableRuntime:
        """A new table; with ``key``, the one a first try made, if it did (``request_keys``)."""
        invite = new_table_id() + new_table_id() if options.private else None
        data = TableData(
            table_id=new_table_id() if key is None else request_keys.table_id_of_key(key),
            options=options,
            invite=invite,
            created_ms=created_ms,
            next_deal_seconds=self._next_deal_seconds,
            commits=next_commits([]),
            key_hash=None if key is None else request_keys.key_hash(key),
            duplicate=duplicate,  # a duplicate event's deals (server/node/duplicates.py)
        )
        try:
            await self.store.create(data)
        except StaleVersion as e:  # the id is taken: by this key's first try, or refused
            if key is None:
                raise unavailable(e) from e
            made = await self.runtime(data.table_id)
            if not request_keys.made_with(made.data, key):
                raise tr.TableRefused("bad_key", "this key is taken: choose another") from e
            request_keys.same_table(made.data, options)
            return made
        except StoreError as e:
            raise unavailable(e) from e
        self._on_created()
        return await self._add(data)

    def lost(self, table_id: str) -> None:
        """The store no longer has a table it had (Redis restarted empty): report it lost,
        tell its followers, drop it here. ``/readyz`` says so for ``LOST_HEALTH_SECONDS``."""
        runtime = self.runtimes.get(table_id)
        if runtime is None:
            return
        log.error("table %s was lost by the table store", table_id)
        self._on_lost()
        self.lost_at = time.monotonic()
        runtime.lost()
        self.runtimes.pop(table_id, None)
        task = asyncio.get_running_loop().create_task(self.forget(runtime))
        self._forgetting.add(task)
        task.add_done_callback(self._forgetting.discard)

    def lost_data_recently(self) -> bool:
        return self.lost_at is not None and time.monotonic() - self.lost_at < LOST_HEALTH_SECONDS

    async def forget(self, runtime: TableRuntime) -> None:
        """Let go of a table's runtime (its followers are told by its last event) and of
        its lease."""
        await runtime.stop()
        self.runtimes.pop(runtime.table_id, None)
        listener = self._listeners.pop(runtime.table_id, None)
        with contextlib.suppress(StoreError):
            if listener is not None:
                await self.store.unsubscribe(runtime.table_id, listener)
            await self.store.release_lease(runtime.table_id, self.services.settings.node_id)

    async def stop(self) -> None:
        for runtime in list(self.runtimes.values()):
            await runtime.stop()  # nothing may use the store once it closes
