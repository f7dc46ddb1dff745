"""The Redis calls of a node that are not about one table's data: each round trip bounded
in time (``call``), and what nodes coordinate through: leases, heartbeats, followers.

``RedisStore`` is built on it (``store``); this module only keeps that one small.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript

from server.store.base import StoreUnavailable
from server.store.outage import Outage

from . import keys
from .connect import FAILURES, Client

if TYPE_CHECKING:
    from server.metrics import Metrics

T = TypeVar("T")


class RedisCalls:
    """Set by ``RedisStore.__init__``."""

    client: Client
    op_timeout: float
    metrics: Metrics | None
    store_id: str
    follow_ttl_ms: int
    outage: Outage
    max_connections: int
    _slots: asyncio.Semaphore
    _acquire: AsyncScript
    _release: AsyncScript
    _follow: AsyncScript

    async def call(self, command: Callable[[], Awaitable[T]], op: str = "other") -> T:
        """Run one Redis round trip: bounded in time, timed, failures as ``StoreUnavailable``;
        ``op`` names it in ``tarot_redis_round_trips_total{operation}``."""
        start = time.perf_counter()
        if self.metrics is not None:
            self.metrics.redis_calls.labels(operation=op).inc()
        try:
            async with asyncio.timeout(self.op_timeout), self._slots:
                answer = await command()
        except TimeoutError as e:
            self._failed(f"no answer within {self.op_timeout}s")
            raise StoreUnavailable(f"redis did not answer within {self.op_timeout}s") from e
        except FAILURES as e:
            self._failed(e)
            raise StoreUnavailable(f"redis failed: {e}") from e
        else:
            self.outage.answered()
            return answer
        finally:
            if self.metrics is not None:
                self.metrics.store_seconds.observe(time.perf_counter() - start)

    def watch(self, metrics: Metrics) -> None:
        """Report round trips, the pool and outages to ``metrics``."""
        self.metrics = metrics
        metrics.redis_pool_size.set(self.max_connections)
        metrics.redis_pool_in_use.set_function(lambda: self.max_connections - self._slots._value)
        metrics.redis_down.set_function(lambda: float(self.outage.down))

    def _failed(self, error: object) -> None:
        self.outage.failed(error)
        if self.metrics is not None:
            self.metrics.redis_errors.inc()

    # ------------------------------------------------------------ leases

    async def acquire_lease(self, table_id: str, owner: str, ttl_ms: int) -> bool:
        held = await self.call(
            lambda: self._acquire(keys=[keys.lease(table_id)], args=[owner, ttl_ms]), "lease"
        )
        return bool(held)

    async def acquire_leases(self, table_ids: list[str], owner: str, ttl_ms: int) -> list[bool]:
        found = await self._each_table(self._acquire, keys.lease, table_ids, [owner, ttl_ms])
        return [bool(held) for held in found]

    async def _each_table(
        self,
        script: AsyncScript,
        key_of: Callable[[str], str | list[str]],
        table_ids: list[str],
        args: list[Any] | dict[str, list[Any]],
    ) -> list[Any]:
        """``script`` on one key (or some keys) of each table, in one pipelined round trip.

        On a cluster the tables' slots are spread over shards: the calls go
        concurrently instead. ``args`` by table id: the table's (default ``[""]``).
        """

        def args_of(table_id: str) -> list[Any]:
            return args.get(table_id, [""]) if isinstance(args, dict) else args

        if not table_ids:
            return []
        if isinstance(self.client, RedisCluster):

            async def one(table_id: str) -> Any:
                table_keys, table_args = _listed(key_of(table_id)), args_of(table_id)
                return await self.call(lambda: script(keys=table_keys, args=table_args), "tables")

            return list(await asyncio.gather(*(one(table_id) for table_id in table_ids)))
        client = self.client

        async def each() -> list[Any]:
            # ``async with``: a pipeline left by a failed call is reset, not left to the
            # garbage collector ("Unclosed Pipeline client" at ERROR while Redis was down).
            async with client.pipeline(transaction=False) as pipe:
                for table_id in table_ids:
                    await script(
                        keys=_listed(key_of(table_id)), args=args_of(table_id), client=pipe
                    )
                answers: list[Any] = await pipe.execute()
                return answers

        return await self.call(each, "tables")

    async def release_lease(self, table_id: str, owner: str) -> None:
        await self.call(lambda: self._release(keys=[keys.lease(table_id)], args=[owner]), "lease")

    async def release_leases(self, table_ids: list[str], owner: str) -> None:
        await self._each_table(self._release, keys.lease, table_ids, [owner])

    # ------------------------------------------------------------ node heartbeats

    async def heartbeat(self, node_id: str, ttl_ms: int) -> None:
        await self.call(lambda: self.client.set(keys.node(node_id), b"1", px=ttl_ms), "heartbeat")

    async def nodes_alive(self, node_ids: list[str]) -> set[str]:
        if not node_ids:
            return set()

        async def exists(node_id: str) -> bool:
            return bool(
                await self.call(lambda: self.client.exists(keys.node(node_id)), "heartbeat")
            )

        found = await asyncio.gather(*(exists(n) for n in node_ids))
        return {n for n, alive in zip(node_ids, found, strict=True) if alive}

    # ------------------------------------------------------------ followers

    async def follow(self, table_ids: list[str]) -> None:
        """Register (or renew) this node as a follower of these tables, in one round trip."""
        args: list[Any] = [self.store_id, self.follow_ttl_ms]
        await self._each_table(self._follow, keys.followers, table_ids, args)

    async def unfollow(self, table_id: str) -> None:
        await self.call(lambda: self.client.hdel(keys.followers(table_id), self.store_id), "follow")


def _listed(names: str | list[str]) -> list[str]:
    return [names] if isinstance(names, str) else names
