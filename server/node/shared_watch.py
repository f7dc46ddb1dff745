"""What this node reads from and tells the nodes sharing its store, each second: the
operator's decisions (``moderation``) and the connection count (the lobby's ``online``).

Another node's new decision reaches this node's players too (``on_news``: the app
sends the announcement, closes a banned player's connections). While the store
does not answer, the last decisions read hold and ``online`` is this node's count.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from server.metrics import Metrics
from server.settings import Settings
from server.store.base import StoreError
from server.store.shared import Decisions

from .moderation import REFRESH_SECONDS, Moderation

log = logging.getLogger("tarot.node")
News = Callable[[Decisions, Decisions], None]


class SharedWatch:
    def __init__(self, moderation: Moderation, settings: Settings, metrics: Metrics) -> None:
        self.moderation = moderation
        self.settings = settings
        self.metrics = metrics
        self.on_news: News | None = None  # (before, after): the app's
        self._total: int | None = None  # every node's connections, as last read
        self._task: asyncio.Task[None] | None = None

    def here(self) -> int:
        """This node's open connections."""
        return int(self.metrics.registry.get_sample_value("tarot_connections") or 0)

    def online(self) -> int:
        """The connections of every node sharing the store, as read last (at least ours)."""
        return max(self._total or 0, self.here())

    async def start(self) -> None:
        with contextlib.suppress(StoreError):
            await self.moderation.refresh()  # the decisions in force before any player
        self._note(Decisions(), self.moderation.decisions)
        self._task = asyncio.get_running_loop().create_task(self._forever())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _forever(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            try:
                await self.tick()
            except StoreError as e:  # the store's outage is logged once, by the store
                self._total = None
                log.debug("the shared decisions wait for the store: %s", e)

    async def tick(self) -> None:
        ttl_ms = int(3 * REFRESH_SECONDS * 1000)
        node_id = self.settings.node_id
        self._total = await self.moderation.shared.online(node_id, self.here(), ttl_ms)
        before = self.moderation.decisions
        self._note(before, await self.moderation.refresh())

    def _note(self, before: Decisions, after: Decisions) -> None:
        self.metrics.maintenance.set(1 if after.maintenance is not None else 0)
        if self.on_news is not None and _changed(before, after):
            self.on_news(before, after)


def _changed(before: Decisions, after: Decisions) -> bool:
    if after.maintenance is not None and after.maintenance != before.maintenance:
        return True
    return any(after.bans[kind].keys() - before.bans[kind].keys() for kind in after.bans)
