"""A player's deal reviews counted in Redis: the same bound on every node that shares it.

Behind a balancer a player's connections land on several nodes; counted on
each node, ten connections over three nodes would get three times the
reviews. Here one Lua script checks and counts at once (``CHARGE``): the
player's running review (a key with a time-out, so that a node killed
mid-review frees it after ``RUNNING_MS``) and its reviews of the last window
(a sorted set by start time). The two keys share the player's hash tag: one
Redis Cluster slot. Redis not answering refuses the review (``unavailable``):
an analysis is never owed.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable

from server.store.base import REVIEW_WINDOW_SECONDS, StoreError, unavailable
from server.table.refusals import review_refused, reviews_over

from . import keys
from .calls import RedisCalls

log = logging.getLogger("tarot.reviews")
RUNNING_MS = 15 * 60 * 1000  # a review longer than this no longer holds the player back

# KEYS: started, running. ARGV: now (ms), window (ms), per window, this review's id,
# running time-out (ms). Returns {0, 0} charged, {1, 0} one is running, {2, oldest} over.
CHARGE = """
if redis.call('EXISTS', KEYS[2]) == 1 then return {1, 0} end
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {2, tonumber(oldest[2])}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[5])
return {0, 0}
"""
# KEYS: running. ARGV: the review's id. Only the review that set it clears it.
DONE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
"""


class SharedPlayerLimits:
    """``PlayerLimits`` over Redis: one at a time, ``per_window`` in ``window`` seconds."""

    def __init__(
        self,
        store: RedisCalls,
        per_window: int,
        window: float = REVIEW_WINDOW_SECONDS,
        clock: Callable[[], float] = time.time,  # seconds; every node's the same (NTP)
    ) -> None:
        self.per_window = per_window
        self.window = window
        self._clock = clock
        self._store = store
        self._charge = store.client.register_script(CHARGE)
        self._done = store.client.register_script(DONE)
        self._ids: dict[str, str] = {}  # player -> the id of its review running here

    async def charge(self, player: str) -> None:
        if not self.per_window:
            return
        review = uuid.uuid4().hex
        now_ms = round(self._clock() * 1000)
        args: list[int | str] = [
            now_ms,
            round(self.window * 1000),
            self.per_window,
            review,
            RUNNING_MS,
        ]
        started, running = keys.reviews_started(player), keys.review_running(player)
        try:
            status, oldest = await self._store.call(
                lambda: self._charge(keys=[started, running], args=args)
            )
        except StoreError as e:
            raise unavailable(e) from e
        if status == 1:
            raise review_refused("a review is already running for you")
        if status == 2:
            wait = (int(oldest) + self.window * 1000 - now_ms) / 1000
            raise reviews_over(self.per_window, self.window, wait)
        self._ids[player] = review

    async def done(self, player: str) -> None:
        review = self._ids.pop(player, None)
        if review is None:
            return  # charged with no limit
        running = keys.review_running(player)
        try:
            await self._store.call(lambda: self._done(keys=[running], args=[review]))
        except StoreError as e:  # its time-out frees the player
            log.warning("reviews: %s's running review not cleared: %s", player, e)
