"""Which tables this node drives: their leases, renewed, adopted and handed over.

Several nodes may share one store (Redis). Exactly one at a time runs a
table's background work (AI turns, time-outs, grace periods, the next deal):
the one holding its lease. Every ``lease_ms / 3`` this node renews its leases
in one round trip, adopts playing tables nobody drives (a node died), marks
away the seats held through dead nodes, and lets go of idle tables. Draining
hands every lease over at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from server.clock import now_ms
from server.metrics import Metrics
from server.settings import Settings
from server.store.base import StoreError, TableStore
from server.table import transitions as tr
from server.table.refusals import TableError

from .runtime import Build, TableRuntime
from .tables import Tables

log = logging.getLogger("tarot.node")
HANDED_QUIET = 60.0  # seconds: a table handed over is not handed over again meanwhile


def away(seat: int, session: int) -> Build:
    """The change that marks ``seat`` away, if its ``session`` still holds it."""
    return lambda d, s: tr.dropped(d, s, seat, now_ms(), session)


class Leases:
    """The lease keeper of one node."""

    def __init__(
        self, store: TableStore, settings: Settings, metrics: Metrics, tables: Tables
    ) -> None:
        self.store = store
        self.settings = settings
        self.metrics = metrics
        self.tables = tables
        self.draining = False
        self._suspects: set[str] = set()  # nodes whose heartbeat was missing last sweep
        self._others: set[str] = set()  # playing tables another node drove at the last sweep
        self._handed: dict[str, float] = {}  # tables handed over -> when (``_hand_over``)
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        with contextlib.suppress(StoreError):  # alive before any seat names this node
            await self.store.heartbeat(self.settings.node_id, self.settings.lease_ms)
        self._task = asyncio.get_running_loop().create_task(self._keep())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def take(self, runtime: TableRuntime) -> None:
        """Run the table's background work here if no other node does."""
        if runtime.data.status != "playing" or self.draining:
            return
        try:
            held = await self.store.acquire_lease(
                runtime.table_id, self.settings.node_id, self.settings.lease_ms
            )
        except StoreError:
            held = False
        # Loaded while it was being played: another node (or this one before a restart)
        # drove it until now.
        self._drive(runtime, held, takeover=True)

    def _drive(self, runtime: TableRuntime, held: bool, takeover: bool) -> None:
        """Run the table's background work if and only if its lease is ours; ``takeover``:
        another node drove it until now (``tarot_lease_takeovers_total``)."""
        if held and not runtime.driving:
            if takeover:
                self.metrics.lease_takeovers.inc()
            runtime.start_driving()
        elif not held and runtime.driving:
            runtime.stop_driving()

    async def _keep(self) -> None:
        """Renew our leases; adopt playing tables whose driver is gone (a lost node)."""
        period = self.settings.lease_ms / 3000
        while True:
            await asyncio.sleep(period)
            start = time.perf_counter()
            with contextlib.suppress(StoreError):
                await self._adopt(await self.store.playing_tables())
            playing = []
            for runtime in self.tables:
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
            for runtime in self.tables
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
        drive, once quiet for ``unload_idle_seconds``, or at once when their seated players
        are all on other nodes (one created here, played there: following it, this node
        would hear every change for nothing). They load again on first use."""
        quiet = time.monotonic() - self.settings.unload_idle_seconds
        for runtime in self.tables:
            if runtime.subscribers or runtime.driving:
                continue
            if runtime.quiet_since < quiet or self._elsewhere(runtime):
                if self.tables.get(runtime.table_id) is runtime:
                    await self.tables.forget(runtime)

    async def _renew(self, runtimes: list[TableRuntime]) -> None:
        """Renew (or take) the leases of these tables, all in one round trip."""
        if self.draining or not runtimes:
            return
        handed = await self._hand_over(runtimes)
        runtimes = [runtime for runtime in runtimes if runtime not in handed]
        if not runtimes:
            return
        ids = [runtime.table_id for runtime in runtimes]
        owner, ttl = self.settings.node_id, self.settings.lease_ms
        try:
            held = await self.store.acquire_leases(ids, owner, ttl)
        except StoreError:  # not known to be ours: stop driving (the last sweep's view stays)
            for runtime in runtimes:
                self._drive(runtime, False, takeover=False)
            return
        others = set()
        for runtime, ours in zip(runtimes, held, strict=True):
            if runtime.data.status == "playing":  # it may have ended during the round trip
                # A table another node drove at the last sweep is taken over; one that
                # just began to be played here is not (it counted 1 on a fresh node).
                self._drive(runtime, ours, takeover=runtime.table_id in self._others)
                if not ours:
                    others.add(runtime.table_id)
        self._others = others

    async def _hand_over(self, runtimes: list[TableRuntime]) -> list[TableRuntime]:
        """Let go of the tables we drive whose seated players are all on other nodes.

        A balancer sends a table's seats to one node (the WebSocket path names the
        table), but the table may have been created, or first driven, elsewhere: the
        driver then sent every AI turn's events through Redis to the seats' node. Let
        go, that node takes the lease at its next sweep; if it does not (it drains,
        or it died), we take it back at ours, and do not let go again for a while.
        Never to a node without a heartbeat: seats still name a node killed outright
        until they are marked away (``_mark_dead_nodes_seats``), and a table handed to
        it went undriven for a sweep, then again from each node that took it up.
        """
        now = time.monotonic()
        self._handed = {t: at for t, at in self._handed.items() if now - at < HANDED_QUIET}
        going = [r for r in runtimes if r.driving and self._elsewhere(r)]
        going = [r for r in going if r.table_id not in self._handed]
        if not going:
            return []
        try:
            alive = await self.store.nodes_alive(sorted(set().union(*map(_seat_nodes, going))))
            # Seats may have changed during the round trip: asked again of each table.
            going = [r for r in going if self._elsewhere(r) and _seat_nodes(r) <= alive]
            if going:
                await self.store.release_leases([r.table_id for r in going], self.settings.node_id)
        except StoreError:
            return []
        for runtime in going:
            runtime.stop_driving()
            self._handed[runtime.table_id] = now
            self.metrics.lease_handovers.inc()
            log.info("table %s: its driver handed to its seats' node", runtime.table_id)
        return going

    def _elsewhere(self, runtime: TableRuntime) -> bool:
        """Whether the table's seated players are all connected through other nodes."""
        nodes = _seat_nodes(runtime)
        return bool(nodes) and "" not in nodes and self.settings.node_id not in nodes

    async def _adopt(self, playing: list[str]) -> None:
        """Follow the tables in play nobody drives, once their lease is ours (not every table
        everywhere): the leases of those not loaded here asked for in one round trip."""
        table_ids = [t for t in playing if self.tables.get(t) is None]
        if self.draining or not table_ids:
            return
        owner, ttl = self.settings.node_id, self.settings.lease_ms
        held = await self.store.acquire_leases(table_ids, owner, ttl)
        for table_id, ours in zip(table_ids, held, strict=True):
            if ours:
                with contextlib.suppress(TableError):
                    await self.tables.runtime(table_id)

    async def release_all(self) -> None:
        """Hand every lease over (draining): another node adopts the tables."""
        self.draining = True
        for runtime in self.tables:
            runtime.stop_driving()
        with contextlib.suppress(StoreError):  # all in one round trip
            await self.store.release_leases(
                [r.table_id for r in self.tables], self.settings.node_id
            )

    async def release_on_stop(self) -> None:
        with contextlib.suppress(StoreError):
            await self.store.release_leases(
                [r.table_id for r in self.tables], self.settings.node_id
            )


def _seat_nodes(runtime: TableRuntime) -> set[str]:
    """The nodes the table's seated players are connected through ("": not known)."""
    return {
        seat.node
        for seat in runtime.data.seats
        if seat.occupant == "human" and seat.dropped_at_ms is None
    }
