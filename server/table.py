"""One table on this node: its cached state, its local subscribers, its driver.

Theory of operation. The store holds the truth (``TableData``); every change
is built by a pure function of ``transitions`` and committed with a
check-and-set on the version, retried on ``StaleVersion``. Committed changes
reach the runtime of every node through the store's subscription; each runtime
sends each event to its local connections in sequence order: the event itself
to those allowed to see it, a bare ``hidden`` marker with the same number to
the others. The node holding the table's lease also runs the driver: AI
turns, turn time-outs, grace periods and the next deal.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Protocol

import engine
from protocol import Codec
from protocol import models as m
from protocol.convert import legal_model, view_model

from . import transitions as tr
from .store import StaleVersion, StoreError, Update
from .tabledata import StoredEvent, TableData, deal_state, next_commits, stored_action

if TYPE_CHECKING:
    from .node import Node

log = logging.getLogger("tarot.table")

Build = Callable[[TableData, engine.Deal | None], tr.Change]


def now_ms() -> int:
    return int(time.time() * 1000)


class Subscriber(Protocol):
    """A local connection that follows a table (a seat, or a spectator with seat None)."""

    codec: Codec
    seat: int | None
    session: int  # the seat's session this connection holds (see SeatData.session)
    last_seq: int
    turn_sent: tuple[int, int | None]  # the last your_turn sent: (seq, deadline_ms)

    def send_frame(self, frame: str | bytes) -> None: ...

    def replaced(self) -> None:
        """A newer connection (maybe on another node) took this seat."""
        ...


class TableRuntime:
    def __init__(self, node: Node, data: TableData) -> None:
        self.node = node
        self.data = data
        self.state: engine.Deal | None = deal_state(data.deal) if data.deal else None
        self.subscribers: dict[Subscriber, None] = {}
        self.delivered = data.seq
        self._pending: dict[int, StoredEvent] = {}
        self._lock = asyncio.Lock()
        self._kick = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()  # catch-ups and marks, until done
        self._catching_up = False
        self._last_change = time.monotonic()
        # The commit being made here and its engine state: when the store hands
        # our own commit back to us (memory store, synchronously), nothing is replayed.
        # Keyed by commit id: another node's update of the same version (its commit won,
        # ours will be refused) must not be given our state.
        self._own: tuple[str, engine.Deal | None] = ("", None)

    @property
    def table_id(self) -> str:
        return self.data.table_id

    def summary(self) -> m.TableSummary:
        spectators = sum(1 for s in self.subscribers if s.seat is None)
        return self.data.summary(spectators)

    # ------------------------------------------------------------ changes

    async def transact(self, build: Build) -> tr.Change:
        """Build a change from the current data and commit it (check-and-set)."""
        async with self._lock:
            for _ in range(5):
                data, state = self.data, self.state
                change = build(data, state)
                if change.data is data and not change.events:
                    return change
                phase = change.state.phase.value if change.state is not None else None
                new = change.data.model_copy(
                    update={
                        "version": data.version + 1,
                        "seq": data.seq + len(change.events),
                        "phase": phase,
                        "commits": next_commits(data.commits),
                    }
                )
                stored = [
                    StoredEvent(
                        seq=data.seq + i + 1, audience=aud, event=ev.model_dump(mode="json")
                    )
                    for i, (aud, ev) in enumerate(change.events)
                ]
                try:
                    self._own = (new.commit, change.state)
                    await self.node.store.commit(new, stored)
                except StaleVersion:
                    await self.reload()
                    continue
                except StoreError as e:
                    raise tr.TableRefused("unavailable", f"the table store failed: {e}") from e
                finally:
                    self._own = ("", None)
                self.apply_update(Update(new, stored), change.state)
                self.node.metrics.committed(len(stored))
                return change
        raise tr.TableRefused("stale", "the table kept changing; look at the new state and retry")

    async def reload(self) -> None:
        try:
            data = await self.node.store.load(self.table_id)
        except StoreError as e:
            raise tr.TableRefused("unavailable", f"the table store failed: {e}") from e
        if data is None:
            return
        if data.version > self.data.version:
            self.apply_update(Update(data, []), None)
            if data.seq > self.delivered:
                self._schedule_catch_up()
        elif data.commit != self.data.commit and data.commit and self.data.commit:
            # The store lost what we have (it is the truth). Other nodes that have it
            # too hear of it from a commit: ours if one comes, else a mark.
            self._resync(data)
            self._spawn(self._mark(data.version))

    def apply_update(self, update: Update, state: engine.Deal | None = None) -> None:
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
        if state is None and self._own[0] == table.commit and table.commit:
            state = self._own[1]
        if state is None:
            state = self._state_for(table)
        self.data, self.state = table, state
        self._last_change = time.monotonic()
        for sub in list(self.subscribers):
            if sub.seat is not None and sub.session < table.seats[sub.seat].session:
                sub.replaced()
        for event in update.events:
            self._pending[event.seq] = event
        self._deliver_pending()
        self._kick.set()

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
        self.delivered = table.seq
        self._pending.clear()
        self._last_change = time.monotonic()
        for sub in list(self.subscribers):
            if sub.seat is not None and sub.session < table.seats[sub.seat].session:
                sub.replaced()
                continue
            sub.turn_sent = (-1, None)
            self.send_snapshot(sub)
        self.send_turn()
        self._kick.set()

    async def _mark(self, version: int) -> None:
        """Commit the table unchanged (a new version), unless it moved on from ``version``."""
        try:
            await self.transact(lambda d, s: tr.mark(d, s, version))
        except tr.TableRefused as e:
            log.warning("table %s: could not mark the resync: %s", self.table_id, e)

    def _state_for(self, table: TableData) -> engine.Deal | None:
        new, old = table.deal, self.data.deal
        if new is None:
            return None
        if (
            self.state is not None
            and old is not None
            and old.number == new.number
            and old.seed == new.seed
            and new.actions[: len(old.actions)] == old.actions
        ):
            state = self.state.copy()
            for entry in new.actions[len(old.actions) :]:
                engine.apply_in_place(state, stored_action(entry))
            return state
        return deal_state(new)

    # ------------------------------------------------------------ fan-out

    def _deliver_pending(self) -> None:
        turn = False
        for seq in [s for s in self._pending if s <= self.delivered]:
            del self._pending[seq]  # already sent (an update and a catch-up both had it)
        while self.delivered + 1 in self._pending:
            event = self._pending.pop(self.delivered + 1)
            self._send_event(event, list(self.subscribers))
            self.delivered = event.seq
            turn = turn or event.event.get("kind") == "turn"
        if self._pending:
            self._schedule_catch_up()
        if turn:
            self.send_turn()

    def _send_event(self, event: StoredEvent, subscribers: list[Subscriber]) -> None:
        frames: dict[tuple[str, bool], str | bytes] = {}
        for sub in subscribers:
            if event.seq <= sub.last_seq:
                continue
            visible = event.audience is None or (
                sub.seat is not None and sub.seat in event.audience
            )
            key = (sub.codec.name, visible)
            frame = frames.get(key)
            if frame is None:
                body = event.event if visible else {"kind": "hidden"}
                frame = sub.codec.dumps(
                    {"type": "event", "table_id": self.table_id, "seq": event.seq, "event": body}
                )
                frames[key] = frame
            sub.last_seq = event.seq
            sub.send_frame(frame)

    def _schedule_catch_up(self) -> None:
        if not self._catching_up:
            self._catching_up = True
            self._spawn(self._catch_up())

    async def _catch_up(self) -> None:
        """Fetch events missed between two updates (another node's, out of order)."""
        try:
            events = await self.node.store.events_since(self.table_id, self.delivered)
            for event in events or []:
                self._pending.setdefault(event.seq, event)
            if events is None and self._pending:
                # The log no longer holds them: everyone gets a fresh snapshot instead.
                self.delivered = min(self._pending) - 1
                for sub in list(self.subscribers):
                    self.send_snapshot(sub)
        except StoreError as e:
            log.warning("catch-up failed for table %s: %s", self.table_id, e)
        finally:
            self._catching_up = False
        self._deliver_pending()

    def send_turn(self) -> None:
        """Tell the seat to act, if it is here, what it may do."""
        state = self.state
        if state is None or state.is_over:
            return
        seat = state.to_act
        targets = [s for s in self.subscribers if s.seat == seat]
        if not targets:
            return
        legal = legal_model(engine.legal_actions(state))
        assert legal is not None
        message = m.YourTurn(
            table_id=self.table_id,
            seq=self.data.seq,
            legal=legal,
            deadline_ms=self.data.turn_deadline_ms,
        )
        # Once per turn and connection: a seat that joined while its table's last
        # events were still on their way (another node's) got its turn with the
        # snapshot, and those events, delivered later, must not ask again.
        turn = (message.seq, message.deadline_ms)
        for sub in targets:
            if sub.turn_sent != turn:
                sub.turn_sent = turn
                sub.send_frame(sub.codec.encode(message))

    def snapshot(self, seat: int | None) -> m.Snapshot:
        seat_view = None
        if self.state is not None and self.data.deal is not None:
            seat_view = view_model(engine.view(self.state, seat), self.data.deal.number)
        return m.Snapshot(
            table_id=self.table_id, seq=self.data.seq, table=self.summary(), view=seat_view
        )

    def send_snapshot(self, sub: Subscriber) -> None:
        snapshot = self.snapshot(sub.seat)
        sub.last_seq = snapshot.seq
        sub.send_frame(sub.codec.encode(snapshot))

    async def follow(self, sub: Subscriber, last_seq: int | None = None) -> bool:
        """Send this table's events to ``sub`` from now on.

        With ``last_seq`` (a reconnection), the missed events are replayed when
        the log still holds them; otherwise, or without it, a snapshot is sent.
        Returns True when events were replayed. Either way nothing is lost or
        sent twice: events numbered up to what ``sub`` has are skipped.
        """
        sub.last_seq = 1 << 62  # hold live delivery back while the log is read
        sub.turn_sent = (-1, None)  # numbers are this table's: a turn at another's says nothing
        self.subscribers[sub] = None
        replayed = last_seq is not None and await self._replay(sub, last_seq)
        if not replayed:
            self.send_snapshot(sub)
        if self.state is not None and not self.state.is_over and self.state.to_act == sub.seat:
            self.send_turn()
        return replayed

    async def _replay(self, sub: Subscriber, last_seq: int) -> bool:
        sent = last_seq
        while sent < self.delivered:
            try:
                events = await self.node.store.events_since(self.table_id, sent)
            except StoreError:
                events = None
            if not events or events[0].seq != sent + 1:
                return False
            for event in events:
                if event.seq <= self.delivered:
                    sub.last_seq = event.seq - 1
                    self._send_event(event, [sub])
                    sent = event.seq
        sub.last_seq = max(sent, last_seq)
        return sent == self.delivered

    def unsubscribe(self, sub: Subscriber) -> None:
        self.subscribers.pop(sub, None)

    # ------------------------------------------------------------ driver

    def start_driving(self) -> None:
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    def stop_driving(self) -> None:
        if self._driver is not None:
            self._driver.cancel()
            self._keep(self._driver)  # until it has stopped (see ``stop``)
            self._driver = None

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

    @property
    def driving(self) -> bool:
        return self._driver is not None and not self._driver.done()

    async def _drive(self) -> None:
        while self.data.status != "finished":
            self._kick.clear()
            delay = self._due_in()
            if delay is not None and delay <= 0:
                try:
                    await self._do_due()
                except tr.TableRefused as e:
                    log.info("table %s: driver move refused: %s", self.table_id, e.message)
                    await asyncio.sleep(0.05)
                except Exception:  # a bug must not stop the table: log it, retry shortly
                    log.exception("table %s: the driver failed", self.table_id)
                    await asyncio.sleep(1.0)
                continue
            try:
                await asyncio.wait_for(self._kick.wait(), timeout=delay)
            except TimeoutError:
                pass

    def _due_in(self) -> float | None:
        """Seconds until the driver has work (<= 0: now; None: wait for a change)."""
        data, state, settings = self.data, self.state, self.node.settings
        if data.status != "playing":
            return None
        if state is None:
            return 0
        now = now_ms()
        if state.is_over:
            if not tr.anyone_present(data):
                return None  # nobody to play for: wait until a player comes back
            if state.cancelled:
                return settings.ai_pause_seconds - (time.monotonic() - self._last_change)
            if tr.everyone_ready(data, now):
                return settings.ai_pause_seconds - (time.monotonic() - self._last_change)
            if data.next_deal_ms is None:  # stored before the wait was kept with the table
                over = data.deal_over_ms or now
                wait = (over + settings.next_deal_seconds * 1000 - now) / 1000
            else:
                wait = (data.next_deal_ms - now) / 1000
            return min(wait, self._grace_left(now))
        seat = data.seats[state.to_act]
        if seat.occupant == "ai":
            return settings.ai_pause_seconds - (time.monotonic() - self._last_change)
        due: float | None = None
        if seat.dropped_at_ms is not None:
            due = (seat.dropped_at_ms + data.options.grace_seconds * 1000 - now) / 1000
        if data.turn_deadline_ms is not None:
            timeout = (data.turn_deadline_ms - now) / 1000
            due = timeout if due is None else min(due, timeout)
        return due

    def _grace_left(self, now: int) -> float:
        """Seconds until a dropped human's grace period ends (infinity if none)."""
        grace = self.data.options.grace_seconds * 1000
        ends = [
            s.dropped_at_ms + grace - now
            for s in self.data.seats
            if s.occupant == "human"
            and s.dropped_at_ms is not None
            and s.dropped_at_ms + grace > now
        ]
        return min(ends) / 1000 if ends else float("inf")

    async def _do_due(self) -> None:
        state = self.state
        if state is None or state.is_over:
            await self.transact(lambda d, s: tr.next_deal(d, s, now_ms()))
            return
        version, seat = self.data.version, state.to_act
        seed = f"{self.table_id}:{version}"
        level = self.data.options.ai_level
        start = time.perf_counter()
        action = await self.node.bots.decide(level, engine.view(state, seat), seed)
        self.node.metrics.ai_seconds.observe(time.perf_counter() - start)
        if self.data.version != version:
            return  # the table moved on while the bot thought (e.g. the player came back)
        await self.transact(lambda d, s: tr.act(d, s, action, now_ms()))
