"""Cross-node fan-out: each node hears every committed change of the tables it serves.

Theory of operation. A commit ``SPUBLISH``es the new version, its commit id,
its parent's, what it changed of the table (``layout``) and the new
events' JSON, one per line, on the table's sharded channel (``keys.updates``).
A node applies it over the version it has when that is the update's parent
(the store's ``stored``); else it reads the table (``_reload``), and updates
of that table heard meanwhile wait for the read. A node holds one pub/sub
connection per Redis shard (one in all on a single server) and subscribes once
per table, however many of its clients follow it; a reader task per connection
hands each update to the table's listeners, in publish order.

A node hears its own commits too, and drops them here: ``commit`` returns the
update it made and the runtime applies it, so the echo is dropped unparsed, by
its version when the commit's reply came first, by its commit id (``expect``)
when the echo wins the race between the two connections. An echo of a commit
whose reply was lost (a timeout after Redis did apply it) is kept and delivered
then (``settle``), as another node's update: the node misses nothing of its own.

Pub/sub forgets what it sent while a connection was down, so a lost connection
is never re-opened silently: every connection is closed, then re-opened and
re-subscribed after a back-off, and each table's latest state and last event
are handed to its listeners, which fetch any events they missed
(``TableRuntime`` ignores an update it already has and fills gaps from the log).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisClusterException, RedisError

from server.store.base import Listener, StoreError
from server.store.outage import Outage
from server.table.commits import Update
from server.table.data import StoredEvent, TableData

from . import keys
from .layout import Published, published, update_header

log = logging.getLogger("tarot.redis")
FAILURES = (RedisError, RedisClusterException, OSError, TimeoutError)
CONFIRM_SECONDS = 2.0


@dataclass(eq=False)
class Shard:
    """One pub/sub connection to one Redis server, and its reader task."""

    client: Redis
    pubsub: PubSub
    channels: set[bytes] = field(default_factory=set)
    reader: asyncio.Task[None] | None = None

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, *FAILURES):
                await self.reader
        with contextlib.suppress(*FAILURES):
            await self.pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed from redis 8
        with contextlib.suppress(*FAILURES):
            await self.client.aclose()


class Source(Protocol):
    """What the fan-out asks of its store (``RedisStore``): reads, and the follow keys."""

    follow_ttl_ms: int
    stored: dict[str, TableData]  # the versions known stored in parts (``layout``)
    outage: Outage  # where a lost connection is said, once per outage

    def remember(self, table: TableData) -> None: ...

    async def load(self, table_id: str) -> TableData | None: ...

    async def events_since(self, table_id: str, seq: int) -> list[StoredEvent] | None: ...

    async def follow(self, table_ids: list[str]) -> None: ...

    async def unfollow(self, table_id: str) -> None: ...


class Updates:
    """The node's subscriptions: table id -> listeners, over one connection per shard."""

    def __init__(
        self,
        store: Source,
        client: Redis | RedisCluster,
        pubsub_client: Callable[[str, int], Redis],
    ) -> None:
        self.store = store
        self.client = client
        self.pubsub_client = pubsub_client
        self.listeners: dict[str, list[Listener]] = {}
        self.shards: dict[str, Shard] = {}
        self._confirm: dict[bytes, asyncio.Future[None]] = {}
        self._lock = asyncio.Lock()
        self._broken = asyncio.Event()
        self._supervisor: asyncio.Task[None] | None = None
        self._renewer: asyncio.Task[None] | None = None
        self.reconnects = 0
        self.lost: Callable[[str], None] | None = None  # told of followed tables found gone
        # The newest version each table is known to have here, and the commit that made it:
        # this node's own commits come back over pub/sub too, and are dropped without
        # parsing the table's JSON. The same version from another commit is news: the
        # store lost the one known here (see ``TableRuntime.apply_update``).
        self.known: dict[str, tuple[int, bytes]] = {}
        # This node's commits in flight, by commit id: the echo (table id, payload), if it
        # came first.
        self.in_flight: dict[bytes, tuple[str, bytes] | None] = {}
        # The tables being read again (an update that did not follow what this node had),
        # with the updates heard meanwhile, handled after the read.
        self._reloading: dict[str, list[bytes]] = {}
        self._reads: set[asyncio.Task[None]] = set()

    def expect(self, commit: str) -> None:
        """A commit of this node is about to be sent: its echo may come before its reply."""
        self.in_flight[commit.encode()] = None

    def settle(self, commit: str, update: Update | None) -> None:
        """The commit's outcome: ``update`` if it landed (its committer applies it: only
        known here), None if refused or unknown.

        Unknown (the reply was lost) but echoed means it did land: the echo
        is delivered as any other node's update would be.
        """
        echo = self.in_flight.pop(commit.encode(), None)
        if update is not None:
            self.committed(update.table.table_id, update.table.version, commit.encode())
        elif echo is not None:
            self._deliver_payload(*echo)

    def committed(self, table_id: str, version: int, commit: bytes) -> None:
        if self._news(table_id, version, commit):
            self.known[table_id] = (version, commit)

    def _news(self, table_id: str, version: int, commit: bytes) -> bool:
        known, known_commit = self.known.get(table_id, (-1, b""))
        return version > known or (version == known and commit != known_commit)

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._supervisor = loop.create_task(self._supervise())
        self._renewer = loop.create_task(self._keep_following())

    async def close(self) -> None:
        for task in (self._supervisor, self._renewer, *self._reads):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        async with self._lock:
            await self._close_shards()
        self.listeners.clear()

    # ------------------------------------------------------------ subscriptions

    async def add(self, table_id: str, listener: Listener) -> None:
        """Follow a table; when Redis is down, the subscription is made once it is back."""
        listeners = self.listeners.setdefault(table_id, [])
        listeners.append(listener)
        if len(listeners) > 1:
            return
        async with self._lock:
            if self._broken.is_set():
                return
            try:
                await self._subscribe(table_id)
                await self.store.follow([table_id])  # before the caller reads the table
            except (*FAILURES, StoreError) as e:
                log.warning("subscription to table %s failed: %s", table_id, e)
                self._broken.set()

    async def remove(self, table_id: str, listener: Listener) -> None:
        listeners = self.listeners.get(table_id, [])
        if listener in listeners:
            listeners.remove(listener)
        if listeners or table_id not in self.listeners:
            return
        del self.listeners[table_id]
        self.store.stored.pop(table_id, None)
        channel = keys.updates(table_id).encode()
        async with self._lock:
            for shard in self.shards.values():
                if channel in shard.channels:
                    shard.channels.discard(channel)
                    with contextlib.suppress(*FAILURES):
                        await shard.pubsub.sunsubscribe(channel)
        with contextlib.suppress(StoreError):  # else it expires by itself
            await self.store.unfollow(table_id)

    async def _subscribe(self, table_id: str) -> None:
        """SSUBSCRIBE and wait for the confirmation (callers hold the lock)."""
        channel = keys.updates(table_id).encode()
        shard = self._shard_for(channel)
        confirmed = asyncio.get_running_loop().create_future()
        self._confirm[channel] = confirmed
        try:
            await shard.pubsub.ssubscribe(channel)
            shard.channels.add(channel)
            if shard.reader is None:
                shard.reader = asyncio.get_running_loop().create_task(self._read(shard))
            await asyncio.wait_for(confirmed, CONFIRM_SECONDS)
        finally:
            self._confirm.pop(channel, None)

    def _shard_for(self, channel: bytes) -> Shard:
        if isinstance(self.client, RedisCluster):
            node = self.client.get_node_from_key(channel.decode())
            if node is None:
                raise RedisClusterException(f"no cluster node serves {channel!r}")
            name, host, port = node.name, node.host, int(node.port)
        else:
            name, host, port = "main", "", 0
        shard = self.shards.get(name)
        if shard is None:
            client = self.pubsub_client(host, port)
            shard = Shard(client, client.pubsub())
            self.shards[name] = shard
        return shard

    # ------------------------------------------------------------ reading

    async def _read(self, shard: Shard) -> None:
        try:
            while True:
                message = await shard.pubsub.get_message(timeout=1.0)
                if message is not None:
                    self._handle(message)
        except Exception as e:  # whatever broke it, the connections start over
            self.store.outage.failed(f"lost the pub/sub connection: {e}")
            self._broken.set()

    def _handle(self, message: dict[str, Any]) -> None:
        kind, channel = message["type"], message.get("channel")
        if kind == "ssubscribe" and isinstance(channel, bytes):
            confirmed = self._confirm.get(channel)
            if confirmed is not None and not confirmed.done():
                confirmed.set_result(None)
        elif kind == "smessage" and isinstance(channel, bytes):
            payload = message["data"]
            try:
                version, commit = update_header(payload)
            except ValueError:
                log.exception("an update that does not parse on %s", channel.decode())
                return
            table_id = keys.table_of_channel(channel.decode())
            if commit in self.in_flight:
                self.in_flight[commit] = (table_id, payload)  # ours: delivered after its reply
                return
            if self._news(table_id, version, commit):
                self._deliver_payload(table_id, payload)

    def _deliver_payload(self, table_id: str, payload: bytes) -> None:
        waiting = self._reloading.get(table_id)
        if waiting is not None:
            waiting.append(payload)
            return
        try:
            update = published(payload)
        except ValueError:
            log.exception("an update that does not parse: %r", payload[:80])
            return
        listeners = self.listeners.get(table_id)
        if not listeners or not self._news(table_id, update.version, update.commit):
            return
        base = self.store.stored.get(table_id)
        if not (update.whole or update.follows(base)):
            self._reload(table_id, update)
            return
        try:
            table = update.apply(base)
        except ValueError:
            log.exception("an update that does not apply: %r", payload[:80])
            return
        self.store.remember(table)
        self.committed(table_id, update.version, update.commit)
        self._dispatch(list(listeners), Update(table, update.events))

    def _reload(self, table_id: str, update: Published) -> None:
        """Read the table: ``update`` is not built on the version this node has."""
        self._reloading[table_id] = []
        task = asyncio.get_running_loop().create_task(self._read_table(table_id, update))
        self._reads.add(task)
        task.add_done_callback(self._reads.discard)

    async def _read_table(self, table_id: str, update: Published) -> None:
        try:
            data = await self.store.load(table_id)
        except StoreError as e:  # what it missed is fetched after the reconnection
            log.warning("reading table %s for an update failed: %s", table_id, e)
            self._broken.set()
            data = None
        finally:
            waiting = self._reloading.pop(table_id, [])
        listeners = self.listeners.get(table_id)
        if data is None:
            if not self._broken.is_set() and listeners and self.lost is not None:
                self.lost(table_id)
            return
        commit = data.commit.encode()
        if listeners and self._news(table_id, data.version, commit):
            self.committed(table_id, data.version, commit)
            # The update's events: the runtime fetches from the log those it lacks.
            self._dispatch(list(listeners), Update(data, update.events))
        for payload in waiting:
            self._deliver_payload(table_id, payload)

    def _dispatch(self, listeners: list[Listener], update: Update) -> None:
        for listener in listeners:
            try:
                listener(update)
            except Exception:  # one table's bug must not stop every table's updates
                log.exception("update listener failed", extra={"table": update.table.table_id})

    # ------------------------------------------------------------ following

    async def _keep_following(self) -> None:
        """Renew this node's place among each followed table's followers.

        A renewal that fails counts as a lost connection: once the store
        answers again, the node re-subscribes, re-registers and resyncs, so an
        expired registration cannot leave it deaf to other nodes' commits.
        """
        while True:
            await asyncio.sleep(self.store.follow_ttl_ms / 6000)
            if self._broken.is_set() or not self.listeners:
                continue
            try:
                await self.store.follow(list(self.listeners))
            except StoreError as e:  # the outage is logged once (``outage.py``)
                log.debug("renewing the followed tables failed: %s", e)
                self._broken.set()

    # ------------------------------------------------------------ recovery

    async def _supervise(self) -> None:
        backoff = 0.1
        while True:
            await self._broken.wait()
            await asyncio.sleep(backoff)
            if await self._reconnect():
                backoff = 0.1
                self.reconnects += 1
                log.info("redis pub/sub reconnected; %d tables resynced", len(self.listeners))
            else:
                backoff = min(backoff * 2, 2.0)

    async def _reconnect(self) -> bool:
        async with self._lock:
            await self._close_shards()
            self._broken.clear()
            try:
                if isinstance(self.client, RedisCluster):
                    await self.client.nodes_manager.initialize()
                for table_id in list(self.listeners):
                    await self._subscribe(table_id)
                await self.store.follow(list(self.listeners))
            except (*FAILURES, StoreError) as e:
                self.store.outage.failed(e)
                log.debug("redis pub/sub still down: %s", e)
                self._broken.set()
                return False
        try:
            await self._resync()
        except StoreError as e:
            log.debug("resync after reconnection failed: %s", e)
            self._broken.set()
            return False
        return True

    async def _resync(self) -> None:
        """Hand each table's latest state and last event to its listeners."""
        for table_id in list(self.listeners):
            data = await self.store.load(table_id)
            if data is None:
                if self.lost is not None and table_id in self.listeners:
                    self.lost(table_id)  # Redis came back without it
                continue
            events = await self.store.events_since(table_id, data.seq - 1) if data.seq else []
            listeners = self.listeners.get(table_id)
            if listeners:
                self._dispatch(list(listeners), Update(data, events or []))

    async def _close_shards(self) -> None:
        shards, self.shards = list(self.shards.values()), {}
        for shard in shards:
            await shard.close()
