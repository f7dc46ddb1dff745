"""The embedded default store: every table in this process, nothing persisted.

Each table's event log keeps its last ``EVENT_LOG_LIMIT`` events (in the server's
storage form, server/table/stored_events.py) as marshalled bytes (see
``_EventLog``); listeners hear a commit on the next loop turn, as
they would over pub/sub.
"""

from __future__ import annotations

import asyncio
import bisect
import marshal
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from server.queue.memory_tickets import MemoryTickets
from server.queue.tickets import TicketStore
from server.table.commits import Update
from server.table.data import StoredEvent, TableData

from . import account_index as ai
from . import lobby_index as li
from .base import EVENT_LOG_LIMIT, Listener, ReviewLimits, StaleVersion
from .shared import MemoryShared, Shared

if TYPE_CHECKING:
    from protocol import models as m
    from server.metrics import Metrics


class _EventLog:
    """A table's event log in the memory store: each event one marshalled ``bytes``.

    The logs are most of what a node holds (``EVENT_LOG_LIMIT`` events a
    table). Kept as StoredEvents, with their tuples, dicts and lists, every
    collection of the garbage collector scanned them, and at 200 tables its
    pauses reached 100-200 ms; ``bytes`` are not tracked at all. Events are
    numbered without gaps (``committed_update``), so the list's index says
    which one each is. ``marshal``: the bytes never leave this process.
    """

    __slots__ = ("entries", "first")

    def __init__(self) -> None:
        self.first = 1  # the number of entries[0]
        self.entries: list[bytes] = []

    def extend(self, events: list[StoredEvent]) -> None:
        if events and not self.entries:
            self.first = events[0].seq
        for event in events:
            assert event.seq == self.first + len(self.entries), "events are numbered in a row"
            self.entries.append(marshal.dumps(tuple(event)))
        excess = len(self.entries) - EVENT_LOG_LIMIT
        if excess > 0:
            del self.entries[:excess]
            self.first += excess

    def copy(self) -> _EventLog:
        log = _EventLog()
        log.first, log.entries = self.first, list(self.entries)
        return log

    def since(self, seq: int) -> list[StoredEvent] | None:
        """The events after ``seq``; None when the log no longer holds all of them."""
        if self.entries and self.first > seq + 1:
            return None
        start = max(0, seq + 1 - self.first)
        return [StoredEvent(*marshal.loads(entry)) for entry in self.entries[start:]]


class MemoryStore:
    """The embedded default: everything in this process, nothing persisted."""

    def __init__(self) -> None:
        self._tables: dict[str, TableData] = {}
        self._events: dict[str, _EventLog] = {}
        self._listeners: dict[str, list[Listener]] = {}
        self._leases: dict[str, tuple[str, float]] = {}
        self._tickets = MemoryTickets()
        self._shared = MemoryShared()
        self._alive: dict[str, float] = {}
        self._lists: dict[str, list[str]] = {name: [] for name in li.LISTS}  # sorted members
        self._lines: dict[str, tuple[str, list[str]]] = {}  # table id -> member, lists
        self._seated: dict[int, set[str]] = {}  # account -> table ids (``account_index``)

    def _index(self, table: TableData) -> None:
        """Put ``table`` in the lobby's lists it belongs to, and in those only."""
        line = (li.member(table), li.lists_of(table))
        known = self._lines.pop(table.table_id, None)
        if known == line:
            self._lines[table.table_id] = line
            return
        if known is not None:
            self._unindex(*known)
        for name in line[1]:
            bisect.insort(self._lists[name], line[0])
        if line[1]:
            self._lines[table.table_id] = line

    def _unindex(self, member: str, lists: list[str]) -> None:
        for name in lists:
            members = self._lists[name]
            del members[bisect.bisect_left(members, member)]

    async def create(self, table: TableData) -> None:
        if table.table_id in self._tables:
            raise StaleVersion(f"table {table.table_id} exists")
        self._note_accounts(None, table)
        self._tables[table.table_id] = table
        self._events[table.table_id] = _EventLog()
        self._index(table)

    async def load(self, table_id: str) -> TableData | None:
        return self._tables.get(table_id)

    async def commit(self, table: TableData, events: list[StoredEvent]) -> Update:
        current = self._tables.get(table.table_id)
        if (
            current is None
            or current.version != table.version - 1
            or (table.parent and current.commit != table.parent)
        ):
            raise StaleVersion(f"table {table.table_id} changed")
        self._note_accounts(current, table)
        if li.summary_changed(current, table):
            self._index(table)
        self._tables[table.table_id] = table
        self._events[table.table_id].extend(events)
        update = Update(table, events)
        # After the caller has it, as over pub/sub: the committer's own listener then meets
        # a version it has (nodes sharing this store in one process hear it too).
        loop = asyncio.get_running_loop()
        for listener in list(self._listeners.get(table.table_id, ())):
            loop.call_soon(listener, update)
        return update

    async def settle(self, table: TableData) -> bool:
        current = self._tables.get(table.table_id)  # never silent: asked only for the protocol
        return current is not None and current.commit_at(table.version) == table.commit

    async def events_since(self, table_id: str, seq: int) -> list[StoredEvent] | None:
        log = self._events.get(table_id)
        return [] if log is None else log.since(seq)

    async def list_tables(self) -> list[TableData]:
        return list(self._tables.values())

    async def lobby_page(
        self, listing: str, after: str, limit: int
    ) -> list[tuple[str, m.TableSummary | None]]:
        members = self._lists[listing]
        start = bisect.bisect_right(members, after) if after else 0
        page = members[start : start + limit]
        return [(member, li.lobby_summary(self._tables[li.table_of(member)])) for member in page]

    async def lobby_count(self, listing: str) -> int:
        return len(self._lists[listing])

    async def lobby_ids(self, listing: str, before: str = "") -> list[str]:
        members = self._lists[listing]
        end = bisect.bisect_left(members, before) if before else len(members)
        return [li.table_of(member) for member in members[:end]]

    async def delete(self, table_id: str) -> None:
        line = self._lines.pop(table_id, None)
        if line is not None:
            self._unindex(*line)
        self._tables.pop(table_id, None)
        self._events.pop(table_id, None)
        self._listeners.pop(table_id, None)
        self._leases.pop(table_id, None)

    async def playing_tables(self) -> list[str]:
        return await self.lobby_ids(li.PLAYING)

    def _note_accounts(self, base: TableData | None, table: TableData) -> None:
        for account_id in ai.accounts_new(base, table):
            self._seated.setdefault(account_id, set()).add(table.table_id)

    async def account_tables(self, account_id: int) -> list[TableData]:
        ids = self._seated.get(account_id, set())
        found = [self._tables.get(table_id) for table_id in sorted(ids)]
        held = [t for t in found if t is not None and ai.still_held(t, account_id)]
        ids.intersection_update(t.table_id for t in held)
        return held

    async def subscribe(self, table_id: str, listener: Listener) -> None:
        self._listeners.setdefault(table_id, []).append(listener)

    async def unsubscribe(self, table_id: str, listener: Listener) -> None:
        listeners = self._listeners.get(table_id, [])
        if listener in listeners:
            listeners.remove(listener)

    async def acquire_lease(self, table_id: str, owner: str, ttl_ms: int) -> bool:
        now = time.monotonic()
        holder = self._leases.get(table_id)
        if holder is not None and holder[0] != owner and holder[1] > now:
            return False
        self._leases[table_id] = (owner, now + ttl_ms / 1000)
        return True

    async def acquire_leases(self, table_ids: list[str], owner: str, ttl_ms: int) -> list[bool]:
        return [await self.acquire_lease(table_id, owner, ttl_ms) for table_id in table_ids]

    async def release_lease(self, table_id: str, owner: str) -> None:
        if self._leases.get(table_id, ("", 0.0))[0] == owner:
            del self._leases[table_id]

    async def release_leases(self, table_ids: list[str], owner: str) -> None:
        for table_id in table_ids:
            await self.release_lease(table_id, owner)

    async def heartbeat(self, node_id: str, ttl_ms: int) -> None:
        self._alive[node_id] = time.monotonic() + ttl_ms / 1000

    async def nodes_alive(self, node_ids: list[str]) -> set[str]:
        now = time.monotonic()
        return {n for n in node_ids if self._alive.get(n, 0.0) > now}

    async def ping(self) -> bool:
        return True

    async def close(self) -> None:
        self._listeners.clear()

    def on_lost(self, listener: Callable[[str], None]) -> None:
        pass  # the memory store loses nothing while the node runs

    def attach_metrics(self, metrics: Metrics) -> None:
        pass  # no round trips to measure

    def review_limits(self, per_window: int) -> ReviewLimits | None:
        return None  # one process: the node counts its players itself

    def shared(self) -> Shared:
        return self._shared

    def ticket_queue(self) -> TicketStore:
        return self._tickets
