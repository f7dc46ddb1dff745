"""Tables in Redis: the production ``TableStore``, shared by every node.

Theory of operation. A table is a hash (its ``TableData`` JSON but for what
changes at every action, version, last event number, last commit id...), a
list of its deal's actions (the layout: ``layout``) and a stream of
events whose entry IDs are the event numbers (``<seq>-0``), capped near
``EVENT_LOG_LIMIT``; key names are in ``keys`` and share the table's hash tag,
so one Lua script can touch them all, also on Redis Cluster. A commit is one
``EVALSHA`` round trip that checks the stored version, writes what changed
since the version this node last knew stored (``stored``: else everything),
appends the events, refreshes the TTLs and ``SPUBLISH``es the change on the
table's channel, all or nothing. A commit id makes a retried commit that did
land count as done instead of stale.

The change is published only when another node follows the table: each node
registers the tables it follows in the table's followers hash (``follow``,
renewed every few seconds, expiring ``follow_ttl_ms`` after the last renewal),
and the commit script counts the live followers other than the committer. A
node alone with its tables (one node, or a load balancer that keeps a table's
players together) then receives no echo of its own commits: that echo cost
~10% of a node's CPU per action. A node registers before it reads the table,
so no commit can slip between the two unheard.

Every node holds one connection pool (bounded: callers wait on a semaphore for
a connection), for commits on a single server one pipelined connection of its
own that never resends (``writer``), and, for the updates, one pub/sub
connection per Redis shard with one subscription per table (``updates``);
``connect`` opens them, and the Lua scripts are in ``scripts``, the
calls not about one table's data (leases, heartbeats, followers) in
``calls``. Any Redis failure or a call slower
than ``op_timeout`` raises ``StoreUnavailable``; nothing is half written, and
calls succeed again once Redis answers. ``StoreUnavailable`` from ``commit`` means
that nothing changed: a commit whose reply was lost is fenced off and looked up
(the ``RESOLVE`` script) before the node answers, and ``OutcomeUnknown`` is
raised when Redis cannot say (issue 13.6).

Tables expire ``idle_ttl_ms`` after their last change (7 days), or
``finished_ttl_ms`` after they finish (1 day); the lobby index forgets them
when it meets them gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from server.queue.tickets import TicketStore
from server.store.base import (
    EVENT_LOG_LIMIT,
    Listener,
    OutcomeUnknown,
    ReviewLimits,
    StaleVersion,
    StoreError,
    StoreUnavailable,
)
from server.store.outage import Outage
from server.store.shared import Shared
from server.table.commits import Update
from server.table.data import StoredEvent, TableData

from . import keys
from . import layout as rt
from .connect import Client, open_clients
from .lobby import RedisLobby
from .probe import PubSubProbe
from .review_limits import SharedPlayerLimits
from .scripts import (
    ACQUIRE,
    COMMIT,
    CREATE,
    EVENTS_SINCE,
    FOLLOW,
    LINE,
    LOAD,
    LOBBY,
    OLD_LINE,
    RELEASE,
    RESOLVE,
)
from .shared import RedisShared
from .tickets import RedisTickets
from .updates import Updates
from .writer import Writer

if TYPE_CHECKING:
    from server.metrics import Metrics

log = logging.getLogger("tarot.redis")
T = TypeVar("T")
DAY_MS = 24 * 3600 * 1000
FENCE_TTL_MS = 600_000  # a fenced commit is refused for this long (far past any retry)
STORED_KEPT = 20_000  # tables whose stored version a node remembers (then it starts over)


class RedisStore(RedisLobby):
    """A ``TableStore`` on a Redis server or a Redis Cluster (Redis 7+)."""

    def __init__(
        self,
        client: Client,
        pubsub_client: Callable[[str, int], Redis],
        *,
        max_connections: int = 32,
        op_timeout: float = 2.0,
        idle_ttl_ms: int = 7 * DAY_MS,
        finished_ttl_ms: int = DAY_MS,
        follow_ttl_ms: int = 30_000,
        writer: Client | Writer | None = None,
    ) -> None:
        self.client = client
        self.writer = writer or client  # commits go through it (see ``connect``)
        self.op_timeout = op_timeout
        self.idle_ttl_ms = idle_ttl_ms
        self.finished_ttl_ms = finished_ttl_ms
        self.metrics: Metrics | None = None
        self.outage = Outage()  # logs an outage once, and its end
        self.follow_ttl_ms = follow_ttl_ms
        self.store_id = uuid.uuid4().hex  # this node's, in commit ids and followers hashes
        self._commit_ids = (f"{self.store_id}:{n}" for n in itertools.count())
        self._slots = asyncio.Semaphore(max_connections)
        self.max_connections = max_connections
        self._commit = _commit_script(self.writer)
        self._create = client.register_script(CREATE)
        self._events_since = client.register_script(EVENTS_SINCE)
        self._acquire = client.register_script(ACQUIRE)
        self._release = client.register_script(RELEASE)
        self._follow = client.register_script(FOLLOW)
        self._resolve_script = client.register_script(RESOLVE)
        self._load = client.register_script(LOAD)
        self._lobby = client.register_script(LOBBY)
        self._line = client.register_script(LINE)
        self._old_line = client.register_script(OLD_LINE)
        # The latest version of each table known to be stored in parts, that commits send
        # their delta over (``layout``): one this node made, loaded or heard of.
        self.stored: dict[str, TableData] = {}
        self.updates = Updates(self, client, pubsub_client)
        self.probe = PubSubProbe(client, pubsub_client, self.store_id)  # started by connect
        self._tickets = RedisTickets(self)
        self._shared = RedisShared(self)

    @classmethod
    async def connect(
        cls, url: str, *, max_connections: int = 32, wait_seconds: float = 30.0, **options: Any
    ) -> RedisStore:
        """Connect to ``url``: a single server, or any node of a cluster (detected)."""
        clients = await open_clients(url, max_connections, wait_seconds)
        store = cls(
            clients.client,
            clients.pubsub,
            max_connections=max_connections,
            writer=clients.writer,
            **options,
        )
        store.updates.start()
        store.probe.start()
        with contextlib.suppress(StoreError):  # a later start does it
            await store.index_old_tables()
        return store

    def on_lost(self, listener: Callable[[str], None]) -> None:
        self.updates.lost = listener

    def attach_metrics(self, metrics: Metrics) -> None:
        self.watch(metrics)  # calls.py: the pool, the outage
        metrics.redis_pubsub_lag.set_function(lambda: self.probe.lag or 0.0)

    def review_limits(self, per_window: int) -> ReviewLimits | None:
        """Counted in Redis: the same bound on every node that shares it."""
        return SharedPlayerLimits(self, per_window)

    def shared(self) -> Shared:
        """Bans, maintenance and the online count in this Redis: one for every node."""
        return self._shared

    def ticket_queue(self) -> TicketStore:
        """Quick play's queue in this Redis: one queue, whichever node a player is on."""
        return self._tickets

    # ------------------------------------------------------------ tables

    async def create(self, table: TableData) -> None:
        whole = rt.delta(None, table)
        args: list[Any] = [
            table.version,
            table.commit or next(self._commit_ids),
            whole.head,
            table.seq,
            self._ttl(table),
            table.status,
            rt.commits_field(table),
            rt.deadline_field(table),
        ]
        await self.note_accounts(None, table)
        lobby_keys, line = self.line(None, table)
        args += [*line, *whole.actions]
        script_keys = [keys.state(table.table_id), keys.actions(table.table_id), *lobby_keys]
        done = await self.call(lambda: self._create(keys=script_keys, args=args), "create")
        if not done:
            raise StaleVersion(f"table {table.table_id} exists")
        self.remember(table)
        await self.sync(line)
        await self.call(
            lambda: self.client.zadd(keys.LOBBY, {table.table_id: table.created_ms}), "create"
        )

    async def load(self, table_id: str) -> TableData | None:
        script_keys = [keys.state(table_id), keys.actions(table_id)]
        found = await self.call(lambda: self._load(keys=script_keys, args=[""]), "load")
        table = rt.loaded(found)
        if table is not None and found[0] is None:
            self.remember(table)
        else:  # gone, or stored whole by an older node: the next commit writes it all
            self.stored.pop(table_id, None)
        return table

    def remember(self, table: TableData) -> None:
        """``table`` is stored in parts: the next commit may send its delta over it."""
        known = self.stored.get(table.table_id)
        if known is not None and known.version > table.version:
            return  # a load overtaken by a newer version heard of
        if len(self.stored) >= STORED_KEPT and known is None:
            self.stored.clear()  # bounded: forgetting costs one whole write per table
        self.stored[table.table_id] = table

    async def commit(self, table: TableData, events: list[StoredEvent]) -> Update:
        table_id = table.table_id
        commit = table.commit or next(self._commit_ids)
        base = self.stored.get(table_id)
        change = rt.delta(base, table)
        await self.note_accounts(base, table)
        lobby_keys, line = self.line(base, table)
        args: list[Any] = [
            table.version,
            commit,
            change.head,
            table.seq,
            self._ttl(table),
            EVENT_LOG_LIMIT,
            keys.updates(table_id),
            table.status,
            self.store_id,
            table.parent,
            rt.commits_field(table),
            rt.deadline_field(table),
            "r" if change.replaces else "a",
            len(change.actions),
            *line,
            *change.actions,
        ]
        for event in events:
            args += [event.seq, rt.event_json(event)]
        script_keys = [
            keys.state(table_id),
            keys.events(table_id),
            keys.followers(table_id),
            keys.fence(table_id, commit),
            keys.actions(table_id),
            *lobby_keys,
        ]
        self.updates.expect(commit)
        update = None
        try:
            try:
                done = await self.call(lambda: self._commit(keys=script_keys, args=args), "commit")
            except StoreUnavailable as e:
                if _never_sent(e) or not await self._resolve(table_id, commit, table.version):
                    raise  # never sent, or fenced off: it never landed, and never will
                done = True
            update = Update(table, events) if done else None
            if update is not None:
                self.remember(table)
        finally:
            self.updates.settle(commit, update)
        if update is None:
            raise StaleVersion(f"table {table_id} changed")
        await self.sync(line)
        return update

    async def _resolve(self, table_id: str, commit: str, version: int) -> bool:
        """Whether a commit whose reply was lost landed; after this it can never land.

        Asked again with a short back-off for ``3 x op_timeout``; a store silent for
        all of it, or one that cannot tell, raises ``OutcomeUnknown``.
        """
        deadline = time.monotonic() + 3 * self.op_timeout
        while True:
            try:
                return await self._resolve_once(table_id, commit, version)
            except StoreUnavailable as e:
                if time.monotonic() > deadline:
                    raise OutcomeUnknown(f"redis stayed silent: {e}") from e
                await asyncio.sleep(0.1)

    async def settle(self, table: TableData) -> bool:
        return await self._resolve_once(table.table_id, table.commit, table.version)

    async def _resolve_once(self, table_id: str, commit: str, version: int) -> bool:
        script_keys = [keys.state(table_id), keys.fence(table_id, commit)]
        args: list[Any] = [commit, FENCE_TTL_MS, version]
        found = await self.call(
            lambda: self._resolve_script(keys=script_keys, args=args), "resolve"
        )
        if int(found) < 0:
            raise OutcomeUnknown(f"table {table_id} no longer shows its recent commits")
        return bool(found)

    def _ttl(self, table: TableData) -> int:
        return self.finished_ttl_ms if table.status == "finished" else self.idle_ttl_ms

    async def events_since(self, table_id: str, seq: int) -> list[StoredEvent] | None:
        script_keys = [keys.state(table_id), keys.events(table_id)]
        last, entries = await self.call(
            lambda: self._events_since(keys=script_keys, args=[seq]), "events"
        )
        events = [StoredEvent.model_validate_json(fields[b"e"]) for _, fields in _pairs(entries)]
        if int(last) > seq and (not events or events[0].seq != seq + 1):
            return None
        return events

    # ------------------------------------------------------------ updates

    async def subscribe(self, table_id: str, listener: Listener) -> None:
        await self.updates.add(table_id, listener)

    async def unsubscribe(self, table_id: str, listener: Listener) -> None:
        await self.updates.remove(table_id, listener)

    # ------------------------------------------------------------ life

    async def ping(self) -> bool:
        try:
            return bool(await self.call(self.client.ping, "ping"))
        except StoreUnavailable:
            return False

    async def close(self) -> None:
        await self.probe.close()
        await self.updates.close()
        if self.writer is not self.client:
            await self.writer.aclose()
        await self.client.aclose()


def _commit_script(writer: Client | Writer) -> Callable[..., Awaitable[Any]]:
    """The COMMIT script, called as redis-py's scripts are (``keys=``, ``args=``)."""
    if not isinstance(writer, Writer):
        return writer.register_script(COMMIT)

    async def commit(keys: list[str], args: list[Any]) -> Any:
        return await writer.evalsha(COMMIT, keys, args)

    return commit


async def read_table(client: Client, table_id: str) -> TableData | None:
    """A table as stored, read with any client (tools and tests: a node uses ``load``)."""
    found = await client.register_script(LOAD)(keys=rt.table_keys(table_id), args=[""])
    return rt.loaded(found)


def _never_sent(error: BaseException) -> bool:
    """The call failed while connecting: the command never left (nothing to resolve).

    Sound because the writer's connections never resend (``connect``): the error is
    the only attempt's.
    """
    cause = error.__cause__
    return isinstance(cause, RedisConnectionError) and "connecting to" in str(cause)


def _pairs(entries: Any) -> list[tuple[bytes, dict[bytes, bytes]]]:
    """XRANGE entries as returned inside a script reply: [id, [field, value, ...]]."""
    out = []
    for entry_id, flat in entries:
        out.append((entry_id, dict(zip(flat[::2], flat[1::2], strict=True))))
    return out
