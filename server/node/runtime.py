"""One table on this node: its cached state, its commits, its local followers.

Theory of operation. The store holds the truth (``TableData``); every change
is built by a pure function of ``transitions`` and committed with a
check-and-set on the version, retried on ``StaleVersion`` (the update a
commit makes, and the engine state that follows it: ``commits``). Committed changes
reach the runtime of every node through the store's subscription. What each
local follower is sent, and when, is decided by the sans-I/O ``Delivery``
(events in order, replay before live, ``your_turn`` once per turn after the
events before it); this module carries its answers out (frames, log reads).
The node holding the table's lease also runs its ``Driver``: AI turns, turn
time-outs, grace periods and the next deal.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Protocol

import engine
from protocol import Codec
from protocol import models as m
from protocol.convert import view_model
from server.clock import now_ms
from server.store.base import OutcomeUnknown, StaleVersion, StoreError, unavailable
from server.table import transitions as tr
from server.table.commits import Update, committed_update, followed_state
from server.table.data import StoredEvent, TableData, deal_state
from server.table.delivery import Delivery, Out, SendSnapshot, Turn
from server.table.refusals import TableError
from server.table.stored_events import name_of

from . import recovery
from .driver import Driver
from .fanout import Asked, Fanout
from .services import TableServices
from .watchers import Watchers

log = logging.getLogger("tarot.table")

Build = Callable[[TableData, engine.Deal | None], tr.Change]
__all__ = ["Asked", "Build", "Subscriber", "TableRuntime", "TableServices", "now_ms"]


class Subscriber(Protocol):
    """A local connection that follows a table (a seat, or a spectator with seat None)."""

    codec: Codec
    version: int  # the protocol version: 2 and later get folded ``events`` frames

    @property
    def seat(self) -> int | None: ...

    @property
    def session(self) -> int:
        """The seat's session this connection holds (see SeatData.session)."""
        ...

    def send_frame(self, frame: str | bytes) -> None: ...

    def replaced(self) -> None:
        """A newer connection (maybe on another node) took this seat."""
        ...

    def lost(self, table_id: str) -> None:
        """The store no longer has the table: this connection follows it no more."""
        ...


class TableRuntime:
    def __init__(self, services: TableServices, data: TableData) -> None:
        self.services = services
        self.data = data
        self.state: engine.Deal | None = deal_state(data.deal) if data.deal else None
        self.subscribers: dict[Subscriber, None] = {}
        self._new_followers = False  # since the last ``_replace_older``
        self.delivery: Delivery[Subscriber] = Delivery(delivered=data.seq, known=data.seq)
        self.delivery.turn = self._turn([])
        self.driver = Driver(self)
        self.fanout = Fanout(data.table_id, self._legal, self.snapshot)
        self.watchers = Watchers(data.table_id)  # the spectator count told live
        self.quiet_since = time.monotonic()  # the last change or the last follower gone
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()  # log reads and marks, until done
        self._archive(None, None)  # a deal over when loaded: its writer may have died

    @property
    def table_id(self) -> str:
        return self.data.table_id

    @property
    def delivered(self) -> int:
        return self.delivery.delivered

    def summary(self) -> m.TableSummary:
        spectators = sum(1 for s in self.subscribers if s.seat is None)
        return self.data.summary(spectators)

    # ------------------------------------------------------------ changes

    async def transact(
        self,
        build: Build,
        asker: Subscriber | None = None,
        asked: Asked[Subscriber] | None = None,
    ) -> tr.Change:
        """Build a change from the current data and commit it (check-and-set).

        ``asker``: the follower whose action this is, asked for its turn again if the
        change met ``outcome_unknown`` and turns out not to have been applied.
        ``asked``: a version 2 request whose ``re`` goes with the change's events.
        """
        async with self._lock:
            for _ in range(5):
                data, state = self.data, self.state
                change = build(data, state)
                if change.data is data and not change.events:
                    return change
                update = committed_update(data, change)
                try:
                    made = await self.services.store.commit(update.table, update.events)
                except StaleVersion:
                    await self.reload(data.version)
                    continue
                except StoreError as e:
                    if isinstance(e, OutcomeUnknown):
                        self._spawn(self._settle(update.table, asker, self.delivery.turn))
                    raise unavailable(e) from e
                # Applied here with its engine state: the store never hands our own commit
                # back before this (the memory store tells its listeners afterwards, Redis
                # drops the echo), so its actions are not replayed.
                self.apply_update(made, change.state, asked)
                self.services.metrics.committed(len(update.events))
                return change
        raise tr.TableRefused("stale", "the table kept changing; look at the new state and retry")

    async def reload(self, base: int | None = None) -> None:
        """Read the table again; ``base`` is the version a refused commit was built on.

        A load may come back older than what pub/sub has brought meanwhile (another
        node's commits overtook the reply): older than what we have, but past
        ``base``, it only says the store moved on, which we already know. Only a
        store at or below ``base`` with another commit than ours lost what we had.
        """
        try:
            data = await self.services.store.load(self.table_id)
        except StoreError as e:
            raise unavailable(e) from e
        if data is None:
            self.services.lost(self.table_id)
            raise tr.TableRefused(
                "table_lost", f"table {self.table_id} was lost by the table store"
            )
        if data.version > self.data.version:
            store, after = self.services.store, self.data.seq
            missed = await recovery.events_between(store, self.table_id, after, data.seq)
            self.apply_update(Update(data, missed), None)
            return
        if data.version > (self.data.version if base is None else base):
            return  # an older picture of what pub/sub brought: nothing was lost
        if data.commit != self.data.commit and data.commit and self.data.commit:
            # The store lost what we have (it is the truth). Other nodes that have it
            # too hear of it from a commit: ours if one comes, else a mark.
            self._resync(data)
            self._spawn(self._mark(data.version))

    def apply_update(
        self,
        update: Update,
        state: engine.Deal | None = None,
        asked: Asked[Subscriber] | None = None,
    ) -> None:
        """A committed change (ours or another node's): cache it, deliver its events."""
        table = update.table
        if table.version < self.data.version:
            return
        if table.version == self.data.version:
            if table.commit != self.data.commit and table.commit and self.data.commit:
                self._resync(table)  # another commit made this version: the store lost ours
            return
        ours = table.commit_at(self.data.version)
        if ours is not None and self.data.commit and ours != self.data.commit:
            self._resync(table)  # not built on what we have: the store lost it
            return
        if state is None:
            state = followed_state(self.data, self.state, table)
        before, before_state = self.data, self.state
        events = update.events  # all since the data held here? (``_turn``)
        whole = events[0].seq == before.seq + 1 if events else table.seq == before.seq
        self.data, self.state = table, state
        self._archive(before, before_state)
        self.quiet_since = time.monotonic()
        self.driver.changed()
        if table.seats is not before.seats or self._new_followers:
            self._replace_older(table)
        delivery = self.delivery
        delivery.known = table.seq
        outs = delivery.set_turn(self._turn(events, whole))
        self._carry(outs + delivery.receive(events), asked)

    def _replace_older(self, table: TableData) -> None:
        """Tell followers whose seat's session grew past theirs (only when the seats or the
        followers changed: a commit that keeps the seats keeps the very list)."""
        self._new_followers = False
        for sub in list(self.subscribers):
            if sub.seat is not None and sub.session < table.seats[sub.seat].session:
                sub.replaced()

    def _archive(self, before: TableData | None, before_state: engine.Deal | None) -> None:
        """Hand the history what finished between ``before`` and now (server/node/archive.py)."""
        if self.services.archive is not None:
            self.services.archive(before, before_state, self.data, self.state)

    def _turn(self, events: list[StoredEvent], whole: bool = True) -> Turn | None:
        """The table's current turn; ``events`` just brought it here (if not ``whole``, not
        all since the data held: the same seat's turn may be a new one, issue 29.2)."""
        state, data = self.state, self.data
        if state is None or state.is_over or data.status != "playing":
            return None
        turns = [e.seq for e in events if name_of(e.event) == "turn"]
        current = self.delivery.turn
        if turns:
            return Turn(turns[-1], state.to_act, data.turn_deadline_ms)
        if (
            whole
            and current is not None
            and current.seat == state.to_act
            and current.deadline_ms == data.turn_deadline_ms
        ):
            return current
        return Turn(data.seq, state.to_act, data.turn_deadline_ms)  # after everything known

    def _resync(self, table: TableData) -> None:
        """Start again from the store's ``table``, behind what this node had.

        Only after the store lost commits (a Redis failover: replication is
        asynchronous). Every follower gets a snapshot of the store's truth,
        numbered as the store numbers it, which may be below what it saw.
        """
        log.warning(
            "table %s: the store is at version %d, not %d as here: resyncing",
            self.table_id,
            table.version,
            self.data.version,
        )
        self.data = table
        self.state = deal_state(table.deal) if table.deal else None
        self._archive(None, None)
        self.delivery.restart(table.seq)
        self.delivery.turn = self._turn([], whole=False)
        self.driver.changed()
        for sub in list(self.subscribers):
            if sub.seat is not None and sub.session < table.seats[sub.seat].session:
                sub.replaced()
                continue
            self.send_snapshot(sub)

    async def _settle(self, table: TableData, asker: Subscriber | None, turn: Turn | None) -> None:
        """After ``outcome_unknown``: the events follow, or ``asker`` is asked again."""
        landed = await recovery.landed(self.services.store, table)
        if not await recovery.read_again(self._reload_now):
            return
        if not landed and asker is not None and self.delivery.turn == turn:
            self._carry(self.delivery.ask_again(asker))

    def commit_later(self, build: Build) -> None:
        """Commit ``build`` once the store answers again (a seat's drop, which must not be
        lost to a store's blip); ``build`` must be harmless if it landed before."""
        self._spawn(recovery.until_done(self.transact, build))

    async def _reload_now(self) -> None:
        async with self._lock:  # a load older than a commit made meanwhile is no news
            await self.reload()

    async def _mark(self, version: int) -> None:
        """Commit the table unchanged (a new version), unless it moved on from ``version``."""
        try:
            await self.transact(lambda d, s: tr.mark(d, s, version))
        except TableError as e:
            log.warning("table %s: could not mark the resync: %s", self.table_id, e)

    # ------------------------------------------------------------ fan-out

    def _carry(self, outs: list[Out[Subscriber]], asked: Asked[Subscriber] | None = None) -> None:
        """Do what the delivery core decided, in its order (frames: ``fanout``)."""
        if self.fanout.carry(outs, asked):
            self._spawn(self._fetch())  # from ``delivered``

    def _legal(self, turn: Turn) -> engine.Legal | None:
        """The legal choices of ``turn``'s seat, None unless it is the current turn."""
        state = self.state
        if state is None or state.is_over or state.to_act != turn.seat:
            return None
        return engine.legal_actions(state)

    async def _fetch(self) -> None:
        """Fetch events missed between two updates (another node's, out of order)."""
        delivery = self.delivery  # a retry reads from what was delivered meanwhile
        events = await recovery.events_since(
            self.services.store, self.table_id, lambda: delivery.delivered
        )
        self._carry(self.delivery.fetched(events, self.data.seq))

    def snapshot(self, seat: int | None) -> m.Snapshot:
        seat_view = None
        if self.state is not None and self.data.deal is not None:
            seat_view = view_model(engine.view(self.state, seat), self.data.deal.number)
        return m.Snapshot(
            table_id=self.table_id, seq=self.data.seq, table=self.summary(), view=seat_view
        )

    def send_snapshot(self, sub: Subscriber) -> None:
        """A snapshot, then live (a version 2 seat to act gets its turn inside it)."""
        self._carry([SendSnapshot(sub), *self.delivery.snapshot(sub, self.data.seq)])

    def lost(self) -> None:
        """The store lost this table: every follower is told and let go."""
        for sub in list(self.subscribers):
            self.unsubscribe(sub)
            sub.lost(self.table_id)

    def tell_players(self, message: m.Model) -> None:
        """A message to every local follower (the driver's error reports)."""
        for sub in list(self.subscribers):
            sub.send_frame(sub.codec.encode(message))

    async def follow(self, sub: Subscriber, last_seq: int | None = None) -> bool:
        """Send this table's events to ``sub`` from now on.

        With ``last_seq`` (a reconnection), the missed events are replayed when
        the log still holds them; otherwise, or without it, a snapshot is sent.
        Returns True when events were replayed. Either way nothing is lost or
        sent twice, and live events wait until the replay is done. A ``last_seq``
        past the table's last event here (a store that lost commits, a client's
        mistake) is not one the node knows: a snapshot (PROTOCOL.md, section 9).
        """
        if last_seq is not None and last_seq > self.delivery.known:
            last_seq = None
        self.subscribers[sub] = None
        self._new_followers = True
        self.delivery.add(sub, sub.seat, last_seq or 0, getattr(sub, "shows", None))
        replayed = last_seq is not None and await self._replay(sub)
        if sub not in self.subscribers:
            return replayed
        if replayed:
            self._carry(self.delivery.go_live(sub))
        else:
            self.send_snapshot(sub)
        self.watchers.tell(self.subscribers, sub if replayed else None)
        return replayed

    async def _replay(self, sub: Subscriber) -> bool:
        while (after := self.delivery.replay_from(sub)) is not None:
            try:
                events = await self.services.store.events_since(self.table_id, after)
            except StoreError:
                events = None
            outs = None if events is None else self.delivery.replay(sub, events)
            if not outs:
                return False
            self._carry(outs)
        return True

    def unsubscribe(self, sub: Subscriber) -> None:
        self.subscribers.pop(sub, None)
        self.delivery.remove(sub)
        self.quiet_since = time.monotonic()
        self.watchers.tell(self.subscribers)

    # ------------------------------------------------------------ background work

    def start_driving(self) -> None:
        self.driver.start()

    def stop_driving(self) -> None:
        task = self.driver.stop()
        if task is not None:
            self._keep(task)  # until it has stopped (see ``stop``)

    @property
    def driving(self) -> bool:
        return self.driver.running

    def _spawn(self, work: Coroutine[None, None, None]) -> None:
        self._keep(asyncio.get_running_loop().create_task(work))

    def _keep(self, task: asyncio.Task[None]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stop(self) -> None:
        """Stop the driver and the background work, and wait for them: the store may close."""
        self.stop_driving()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
