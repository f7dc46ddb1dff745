"""``Shared`` in Redis (``server.store.shared``): every node sharing it sees the same bans,
maintenance and connection total.

    {shared}:bans:player    hash: case-folded player name -> banned until (epoch s)
    {shared}:bans:address   hash: address -> banned until (epoch s)
    {shared}:maintenance    string: the maintenance announcement, while one is on
    {shared}:online         hash: node id -> "count until" (until: Redis's clock, ms)
    {shared}:claim:NAME     string: who holds the claim NAME, until its time to live
    {shared}:reminders      sorted set: name -> when it is due (ms since the epoch)

One hash tag: one Redis Cluster slot, each read or write one script or call.
"""

from __future__ import annotations

import time
from typing import Any

from server.store.shared import BanKind, Decisions

from .calls import RedisCalls

TAG = "{shared}"
BANS: dict[BanKind, str] = {"player": f"{TAG}:bans:player", "address": f"{TAG}:bans:address"}
MAINTENANCE = f"{TAG}:maintenance"
ONLINE = f"{TAG}:online"
CLAIM = f"{TAG}:claim:"
REMINDERS = f"{TAG}:reminders"

# KEYS: the claim. ARGV: holder, ttl ms. Returns who holds it (this holder if it was free).
CLAIM_SCRIPT = """
local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]
"""

# KEYS: the claim. ARGV: holder. Lets it go only if this holder holds it.
RELEASE_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: the player bans, the address bans, maintenance. ARGV: now (epoch s). Forgets the bans
# over; returns {maintenance or false, player bans, address bans} (flat field, value lists).
DECISIONS = """
local out = {redis.call('GET', KEYS[3])}
for k = 1, 2 do
  local kept = redis.call('HGETALL', KEYS[k])
  local live = {}
  for i = 1, #kept, 2 do
    if tonumber(kept[i + 1]) <= tonumber(ARGV[1]) then
      redis.call('HDEL', KEYS[k], kept[i])
    else
      live[#live + 1] = kept[i]
      live[#live + 1] = kept[i + 1]
    end
  end
  out[#out + 1] = live
end
return out
"""

# KEYS: online. ARGV: node id, count, ttl ms. Returns the total of the nodes not expired.
ONLINE_COUNT = """
local time = redis.call('TIME')
local now = time[1] * 1000 + math.floor(time[2] / 1000)
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ' ' .. (now + tonumber(ARGV[3])))
local total = 0
local kept = redis.call('HGETALL', KEYS[1])
for i = 1, #kept, 2 do
  local count, untill = string.match(kept[i + 1], '(%d+) (%d+)')
  if tonumber(untill) > now then
    total = total + tonumber(count)
  else
    redis.call('HDEL', KEYS[1], kept[i])
  end
end
return total
"""


class RedisShared:
    def __init__(self, store: RedisCalls) -> None:
        self.store = store
        client = store.client
        self._decisions = client.register_script(DECISIONS)
        self._online = client.register_script(ONLINE_COUNT)
        self._claim = client.register_script(CLAIM_SCRIPT)
        self._release = client.register_script(RELEASE_SCRIPT)

    async def decisions(self) -> Decisions:
        script_keys = [BANS["player"], BANS["address"], MAINTENANCE]
        found = await self.store.call(
            lambda: self._decisions(keys=script_keys, args=[time.time()]), "shared"
        )
        maintenance, players, addresses = found
        return Decisions(
            maintenance.decode() if maintenance else None,
            {"player": _pairs(players), "address": _pairs(addresses)},
        )

    async def ban(self, kind: BanKind, key: str, until: float) -> None:
        await self.store.call(lambda: self.store.client.hset(BANS[kind], key, until), "shared")

    async def unban(self, kind: BanKind, key: str) -> bool:
        found = await self.store.call(lambda: self.store.client.hdel(BANS[kind], key), "shared")
        return bool(found)

    async def announce(self, maintenance: str | None) -> None:
        client = self.store.client
        if maintenance is None:
            await self.store.call(lambda: client.delete(MAINTENANCE), "shared")
        else:
            await self.store.call(lambda: client.set(MAINTENANCE, maintenance), "shared")

    async def online(self, node_id: str, count: int, ttl_ms: int) -> int:
        args: list[Any] = [node_id, count, ttl_ms]
        total = await self.store.call(lambda: self._online(keys=[ONLINE], args=args), "shared")
        return int(total)

    async def claim(self, name: str, holder: str, ttl_ms: int) -> str:
        keys, args = [CLAIM + name], [holder, str(max(1, ttl_ms))]
        held = await self.store.call(lambda: self._claim(keys=keys, args=args), "shared")
        return held.decode() if isinstance(held, bytes) else str(held)

    async def release(self, name: str, holder: str) -> None:
        keys = [CLAIM + name]
        await self.store.call(lambda: self._release(keys=keys, args=[holder]), "shared")

    async def remind(self, name: str, due_ms: int) -> None:
        client = self.store.client
        await self.store.call(lambda: client.zadd(REMINDERS, {name: due_ms}), "shared")

    async def due(self, prefix: str, until_ms: int) -> list[str]:
        client = self.store.client
        found = await self.store.call(
            lambda: client.zrangebyscore(REMINDERS, "-inf", until_ms, start=0, num=100), "shared"
        )
        names = [n.decode() if isinstance(n, bytes) else str(n) for n in found]
        return [n for n in names if n.startswith(prefix)]

    async def forget(self, name: str) -> None:
        await self.store.call(lambda: self.store.client.zrem(REMINDERS, name), "shared")


def _pairs(flat: list[bytes]) -> dict[str, float]:
    return {flat[i].decode(): float(flat[i + 1]) for i in range(0, len(flat), 2)}
