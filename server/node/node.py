"""This server process: its store, its table runtimes, its leases, its bots.

Several nodes may share one store (Redis). A node loads a table's runtime on
first use, follows the table's committed changes through the store, and runs
the background work of the tables whose lease it holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from protocol import models as m
from server.clock import now_ms
from server.metrics import Metrics
from server.settings import Settings
from server.store.base import Listener, StaleVersion, StoreError, TableStore, unavailable
from server.table import request_keys
from server.table import transitions as tr
from server.table.commits import Update
from server.table.data import TableData, new_table_id, next_commits, table_of_token
from server.table.refusals import TableError

from .bots import BotRunner
from .lobby import Lobby
from .reviews import Reviews
from .runtime import Build, TableRuntime

if TYPE_CHECKING:
    from server.history import Accounts

    from .archive import Archive  # SQLAlchemy only where the history is kept

log = logging.getLogger("tarot.node")
LOST_HEALTH_SECONDS = 60.0


def away(seat: int, session: int) -> Build:
    """The change that marks ``seat`` away, if its ``session`` still holds it."""
    return lambda d, s: tr.dropped(d, s, seat, now_ms(), session)


class Node:
    def __init__(
        self, settings: Settings, store: TableStore, bots: BotRunner | None = None
    ) -> None:
        self.settings = settings
        self.store = store
        self.bots = bots or BotRunner(settings.bot_workers)
        # Deal reviews get a worker of their own at the lowest CPU priority: measured with the
        # tables' bot workers, a review raised the tables' p99 on two shared cores (README).
        self.reviews = Reviews(BotRunner(1, niceness=19))
        self.reviews.limits.per_window = settings.reviews_per_player
        self.metrics = Metrics()
        store.attach_metrics(self.metrics)
        self.runtimes: dict[str, TableRuntime] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._waiting: dict[str, int] = {}  # callers of ``runtime`` per table id in _loading
        self.metrics.tables_loaded.set_function(lambda: len(self.runtimes))
        self._suspects: set[str] = set()  # nodes whose heartbeat was missing last sweep
        self.lost_at: float | None = None  # when the store was last found to have lost a table
        self._forgetting: set[asyncio.Task[None]] = set()
        store.on_lost(self.table_lost)
        self._listeners: dict[str, Listener] = {}
        self.lobby = Lobby(self)
        self._leases_task: asyncio.Task[None] | None = None
        self.draining = False
        self.archive: Archive | None = None  # finished deals to the history (``tarot serve``)
        self.accounts: Accounts | None = None  # in the history's database (``signin``)

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        with contextlib.suppress(StoreError):  # alive before any seat names this node
            await self.store.heartbeat(self.settings.node_id, self.settings.lease_ms)
        self._leases_task = asyncio.get_running_loop().create_task(self._keep_leases())
        self.lobby.start()

    async def stop(self) -> None:
        await self.lobby.stop()
        if self._leases_task is not None:
            self._leases_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._leases_task
        for runtime in self.runtimes.values():
            await runtime.stop()  # nothing may use the store once it closes
        with contextlib.suppress(StoreError):
            await self.store.release_leases(list(self.runtimes), self.settings.node_id)
        self.bots.close()
        self.reviews.close()

    # ------------------------------------------------------------ tables

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

    async def _add(self, data: TableData) -> TableRuntime:
        runtime = TableRuntime(self, data)
        self.runtimes[data.table_id] = runtime

        def listener(update: Update) -> None:
            runtime.apply_update(update)

        self._listeners[data.table_id] = listener
        try:
            await self.store.subscribe(data.table_id, listener)
            await runtime.reload(data.version)  # a change may have landed before it
        except StoreError as e:
            log.warning("cannot follow table %s: %s", data.table_id, e)
        await self._lease(runtime)
        return runtime

    async def create_table(self, options: m.TableOptions, key: str | None = None) -> TableRuntime:
        """A new table; with ``key``, the one a first try made, if it did (``request_keys``)."""
        invite = new_table_id() + new_table_id() if options.private else None
        data = TableData(
            table_id=new_table_id() if key is None else request_keys.table_id_of_key(key),
            options=options,
            invite=invite,
            created_ms=now_ms(),
            next_deal_seconds=self.settings.next_deal_seconds,
            commits=next_commits([]),
            key_hash=None if key is None else request_keys.key_hash(key),
        )
        try:
            await self.store.create(data)
        except StaleVersion as e:  # the id is taken: by this key's first try, or refused
            if key is None:
                raise unavailable(e) from e
            made = await self.runtime(data.table_id)
            if not request_keys.made_with(made.data, key):
                raise tr.TableRefused("bad_key", "this key is taken: choose another") from e
            return made
        except StoreError as e:
            raise unavailable(e) from e
        self.metrics.tables_created.inc()
        return await self._add(data)

    def table_lost(self, table_id: str) -> None:
        """The store no longer has a table it had (Redis restarted empty): report it lost,
        tell its followers, drop it here. ``/healthz`` says so for ``LOST_HEALTH_SECONDS``."""
        runtime = self.runtimes.get(table_id)
        if runtime is None:
            return
        log.error("table %s was lost by the table store", table_id)
        self.metrics.tables_lost.inc()
        self.lost_at = time.monotonic()
        runtime.lost()
        self.runtimes.pop(table_id, None)
        task = asyncio.get_running_loop().create_task(self.forget(runtime))
        self._forgetting.add(task)
        task.add_done_callback(self._forgetting.discard)

    def lost_data_recently(self) -> bool:
        return self.lost_at is not None and time.monotonic() - self.lost_at < LOST_HEALTH_SECONDS

    async def forget(self, runtime: TableRuntime) -> None:
        """Let go of a finished table's runtime (its followers are told by its last event)."""
        await runtime.stop()
        self.runtimes.pop(runtime.table_id, None)
        listener = self._listeners.pop(runtime.table_id, None)
        with contextlib.suppress(StoreError):
            if listener is not None:
                await self.store.unsubscribe(runtime.table_id, listener)
            await self.store.release_lease(runtime.table_id, self.settings.node_id)

    async def runtime_of_token(self, token: str) -> TableRuntime:
        return await self.runtime(table_of_token(token))

    # ------------------------------------------------------------ leases

    async def _lease(self, runtime: TableRuntime) -> None:
        """Run the table's background work here if no other node does."""
        if runtime.data.status != "playing" or self.draining:
            return
        try:
            held = await self.store.acquire_lease(
                runtime.table_id, self.settings.node_id, self.settings.lease_ms
            )
        except StoreError:
            held = False
        self._drive(runtime, held)

    def _drive(self, runtime: TableRuntime, held: bool) -> None:
        """Run the table's background work if and only if its lease is ours."""
        if held and not runtime.driving:
            if runtime.data.version > 1:
                self.metrics.lease_takeovers.inc()
            runtime.start_driving()
        elif not held and runtime.driving:
            runtime.stop_driving()

    async def _keep_leases(self) -> None:
        """Renew our leases; adopt playing tables whose driver is gone (a lost node)."""
        period = self.settings.lease_ms / 3000
        while True:
            await asyncio.sleep(period)
            start = time.perf_counter()
            with contextlib.suppress(StoreError):
                for table_id in await self.store.playing_tables():
                    if table_id not in self.runtimes:
                        await self._adopt(table_id)
            playing = []
            for runtime in list(self.runtimes.values()):
                if runtime.data.status == "playing":
                    playing.append(runtime)
                elif runtime.driving:
                    runtime.stop_driving()
            with contextlib.suppress(StoreError):
                await self.store.heartbeat(self.settings.node_id, self.settings.lease_ms)
            await self._renew(playing)
            await self._mark_dead_nodes_seats()
            await self._unload_idle()
            self.metrics.lease_sweep_seconds.observe(time.perf_counter() - start)

    async def _mark_dead_nodes_seats(self) -> None:
        """Seats held through a node that died are away: their grace period starts.

        Only that node could see its connections close; its heartbeat is how the
        others know it is gone. The node driving the table marks the seat, as the
        dead node's close would have (the seat's session guards a resume since).
        """
        me = self.settings.node_id
        held = {
            (runtime, i, seat.node, seat.session)
            for runtime in self.runtimes.values()
            if runtime.driving
            for i, seat in enumerate(runtime.data.seats)
            if seat.occupant == "human" and seat.dropped_at_ms is None and seat.node not in ("", me)
        }
        if not held:
            return
        try:
            alive = await self.store.nodes_alive(sorted({node for _, _, node, _ in held}))
        except StoreError:
            return
        # Gone on two sweeps in a row: a node that was slow to renew (Redis just came
        # back, say) is not taken for dead.
        missing = {node for _, _, node, _ in held} - alive
        dead, self._suspects = missing & self._suspects, missing
        for runtime, seat, node, session in held:
            if node in dead:
                log.info(
                    "table %s: seat %d was held through node %s, gone", runtime.table_id, seat, node
                )
                with contextlib.suppress(TableError):
                    await runtime.transact(away(seat, session))

    async def _unload_idle(self) -> None:
        """Let go of tables that no local connection follows and that this node does not
        drive, once quiet for ``unload_idle_seconds``: they load again on first use."""
        quiet = time.monotonic() - self.settings.unload_idle_seconds
        for runtime in list(self.runtimes.values()):
            if not runtime.subscribers and not runtime.driving and runtime.quiet_since < quiet:
                if self.runtimes.get(runtime.table_id) is runtime:
                    await self.forget(runtime)

    async def _renew(self, runtimes: list[TableRuntime]) -> None:
        """Renew (or take) the leases of these tables, all in one round trip."""
        if self.draining or not runtimes:
            return
        ids = [runtime.table_id for runtime in runtimes]
        owner, ttl = self.settings.node_id, self.settings.lease_ms
        try:
            held = await self.store.acquire_leases(ids, owner, ttl)
        except StoreError:
            held = [False] * len(runtimes)
        for runtime, ours in zip(runtimes, held, strict=True):
            if runtime.data.status == "playing":  # it may have ended during the round trip
                self._drive(runtime, ours)

    async def _adopt(self, table_id: str) -> None:
        """Follow a table nobody drives, once its lease is ours (not every table everywhere)."""
        if self.draining:
            return
        owner, ttl = self.settings.node_id, self.settings.lease_ms
        if await self.store.acquire_lease(table_id, owner, ttl):
            with contextlib.suppress(TableError):
                await self.runtime(table_id)

    async def release_leases(self) -> None:
        """Hand every lease over (draining): another node adopts the tables."""
        self.draining = True
        for runtime in self.runtimes.values():
            runtime.stop_driving()
        with contextlib.suppress(StoreError):  # all in one round trip
            await self.store.release_leases(list(self.runtimes), self.settings.node_id)
