"""How late pub/sub delivers on this node: a message published to a channel of the
node's own every few seconds, timed from its PUBLISH to its reading here
(``tarot_redis_pubsub_lag_seconds``). Table updates travel the same way (sharded
pub/sub), so a lag here is what other nodes' commits wait before this node's players
see them. On a cluster a classic PUBLISH reaches every node; the probe listens on one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from .connect import FAILURES, Client

log = logging.getLogger("tarot.redis")
PERIOD_SECONDS = 5.0
CLOSE_SECONDS = 0.5


class PubSubProbe:
    def __init__(
        self, client: Client, pubsub_client: Callable[[str, int], Redis], store_id: str
    ) -> None:
        self.client = client
        self.pubsub_client = pubsub_client
        self.channel = f"tarot:probe:{store_id}"
        self.lag: float | None = None  # seconds, the last probe's (None: none came back yet)
        self._task: asyncio.Task[None] | None = None
        self._closing = False

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                async with asyncio.timeout(CLOSE_SECONDS * 2):
                    await self._task

    async def _run(self) -> None:
        while not self._closing:
            try:
                await self._probe_forever()
            except FAILURES as e:  # Redis away: the outage is logged by the store's calls
                log.debug("pub/sub probe: %s", e)  # (redis-py turns a cancel into one, too)
            self.lag = None
            if not self._closing:
                await asyncio.sleep(PERIOD_SECONDS)

    async def _probe_forever(self) -> None:
        host, port = "", 0
        if isinstance(self.client, RedisCluster):
            node = self.client.get_default_node()
            host, port = str(node.host), int(node.port)
        connection = self.pubsub_client(host, port)
        pubsub = connection.pubsub()
        try:
            await pubsub.subscribe(self.channel)
            while not self._closing:
                sent = time.monotonic()
                await connection.publish(self.channel, repr(sent))  # its own pool, not the node's
                deadline = sent + PERIOD_SECONDS
                while (left := deadline - time.monotonic()) > 0 and not self._closing:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=left)
                    if message is not None and message.get("data") == repr(sent).encode():
                        self.lag = time.monotonic() - sent
                        break
                else:
                    self.lag = PERIOD_SECONDS  # not back within the period
                await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        finally:  # bounded: cancelled mid-subscribe, redis-py's close can wait for ever
            with contextlib.suppress(*FAILURES):
                async with asyncio.timeout(CLOSE_SECONDS):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed from redis 8
                    await connection.aclose()
