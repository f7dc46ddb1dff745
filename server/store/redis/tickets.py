"""The quick-play queue in Redis: one queue for every node that shares the store.

Every key carries the hash tag ``{queue}`` (one Redis Cluster slot, so the scripts may
touch them all):

    {queue}:tickets    hash: ticket id -> the ticket (JSON: player, name, rating, mode...)
    {queue}:owners     hash: ticket id -> its player
    {queue}:players    hash: player -> its ticket id (one ticket per player, all nodes)
    {queue}:leases     hash: ticket id -> until (ms): renewed each second by the player's node
    {queue}:proposals  hash: ticket id -> its ready check (JSON: match id, deadline)
    {queue}:ready      set: the tickets that confirmed their ready check
    {queue}:seated     hash: ticket id -> its seat (JSON: table, seat, seat token), read
                       and deleted by the player's node within a tick
    {queue}:matcher    string: the node matching now (PX lease)
    {queue}:recent:PLAYER   string: the player's last opponents (JSON list, PX a day)
    {queue}:penalty:PLAYER  string: the player's abandons and penalty (JSON, PX the window)
    {queue}:abandon:TABLE:SEAT:ACCOUNT  string: an abandon charged (once, whichever node saw it)
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from server.queue.tickets import Penalty, Proposal, QueueView, Seating, Ticket, TicketNews

from .calls import RedisCalls

TAG = "{queue}"
TICKETS, OWNERS, PLAYERS = f"{TAG}:tickets", f"{TAG}:owners", f"{TAG}:players"
LEASES, PROPOSALS, READY, SEATED = (
    f"{TAG}:leases",
    f"{TAG}:proposals",
    f"{TAG}:ready",
    f"{TAG}:seated",
)
MATCHER = f"{TAG}:matcher"

# KEYS: players, tickets, leases, owners. ARGV: player, ticket id, ticket JSON, lease.
ADD = """
local held = redis.call('HGET', KEYS[1], ARGV[1])
if held and redis.call('HEXISTS', KEYS[2], held) == 1 then return held end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[4])
redis.call('HSET', KEYS[4], ARGV[2], ARGV[1])
return false
"""
# KEYS: players, tickets, leases, owners, proposals, ready, seated. ARGV: ticket ids.
# Returns the seats given to the cancelled tickets (id, seat JSON, id, ...): in one script
# with the removal, so that a seat the matcher gives is read either here or by its node.
CANCEL = """
local given = {}
for _, id in ipairs(ARGV) do
  local player = redis.call('HGET', KEYS[4], id)
  if player and redis.call('HGET', KEYS[1], player) == id then
    redis.call('HDEL', KEYS[1], player)
  end
  local seat = redis.call('HGET', KEYS[7], id)
  if seat then
    table.insert(given, id)
    table.insert(given, seat)
  end
  for i = 2, 7 do
    if i == 6 then redis.call('SREM', KEYS[i], id) else redis.call('HDEL', KEYS[i], id) end
  end
end
return given
"""
# KEYS: tickets, seated, proposals. ARGV: ticket id, seat JSON, ... Returns the tickets
# gone (cancelled since the matcher read the queue): they get no seat.
SEAT = """
local gone = {}
for i = 1, #ARGV, 2 do
  redis.call('HDEL', KEYS[3], ARGV[i])
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 1 then
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
  else
    table.insert(gone, ARGV[i])
  end
end
return gone
"""
# KEYS: tickets, leases. ARGV: until, ticket ids...
RENEW = """
for i = 2, #ARGV do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 1 then
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[1])
  end
end
return 0
"""
# KEYS: proposals, ready. ARGV: ticket id, match id.
CONFIRM = """
local proposal = redis.call('HGET', KEYS[1], ARGV[1])
if not proposal or cjson.decode(proposal).match_id ~= ARGV[2] then return 0 end
redis.call('SADD', KEYS[2], ARGV[1])
return 1
"""
# KEYS: the lock. ARGV: owner, ttl (ms). The tables' lease script, on the matcher's key.
LOCK = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
# KEYS: the lock. ARGV: owner. Lets it go only if this owner holds it.
UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
"""
ALL = [PLAYERS, TICKETS, LEASES, OWNERS, PROPOSALS, READY, SEATED]


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def recent(player: str) -> str:
    return f"{TAG}:recent:{player}"


def penalty_key(player: str) -> str:
    return f"{TAG}:penalty:{player}"


class RedisTickets:
    """A ``TicketStore`` in the Redis of a ``RedisStore`` (its calls: bounded, counted)."""

    def __init__(self, calls: RedisCalls) -> None:
        self.calls = calls
        client = calls.client
        self._add = client.register_script(ADD)
        self._cancel = client.register_script(CANCEL)
        self._seat = client.register_script(SEAT)
        self._renew = client.register_script(RENEW)
        self._confirm = client.register_script(CONFIRM)
        self._lock = client.register_script(LOCK)
        self._unlock = client.register_script(UNLOCK)

    async def _pipe(self, build: Callable[[Any], None]) -> list[Any]:
        async def run() -> list[Any]:
            pipe = self.calls.client.pipeline(transaction=False)
            build(pipe)
            result: list[Any] = await pipe.execute()
            return result

        return await self.calls.call(run)

    async def _script(self, script: Any, keys: list[str], args: list[Any]) -> Any:
        def run() -> Awaitable[Any]:
            result: Awaitable[Any] = script(keys=keys, args=args)
            return result

        return await self.calls.call(run)

    async def add(self, ticket: Ticket, lease_until_ms: int) -> str | None:
        keys = [PLAYERS, TICKETS, LEASES, OWNERS]
        args = [ticket.player, ticket.ticket_id, ticket.dumps(), lease_until_ms]
        held = await self._script(self._add, keys, args)
        return None if held is None else _text(held)

    async def cancel(self, ticket_ids: list[str]) -> dict[str, Seating]:
        if not ticket_ids:
            return {}
        given = await self._script(self._cancel, ALL, list(ticket_ids))
        pairs = zip(given[::2], given[1::2], strict=True)
        return {_text(t): Seating.loads(seat) for t, seat in pairs}

    async def renew(self, ticket_ids: list[str], until_ms: int) -> None:
        if ticket_ids:
            await self._script(self._renew, [TICKETS, LEASES], [until_ms, *ticket_ids])

    async def news(self, ticket_ids: list[str]) -> dict[str, TicketNews]:
        if not ticket_ids:
            return {}

        def build(pipe: Any) -> None:
            pipe.hmget(TICKETS, ticket_ids)
            pipe.hmget(PROPOSALS, ticket_ids)
            pipe.hmget(SEATED, ticket_ids)

        tickets, proposals, seated = await self._pipe(build)
        return {
            t: TicketNews(
                tickets[i] is not None,
                None if proposals[i] is None else Proposal.loads(proposals[i]),
                None if seated[i] is None else Seating.loads(seated[i]),
            )
            for i, t in enumerate(ticket_ids)
        }

    async def confirm(self, ticket_id: str, match_id: str) -> bool:
        return bool(await self._script(self._confirm, [PROPOSALS, READY], [ticket_id, match_id]))

    async def read(self) -> QueueView:
        def build(pipe: Any) -> None:
            for key in (TICKETS, LEASES, PROPOSALS, SEATED):
                pipe.hgetall(key)
            pipe.smembers(READY)

        tickets, leases, proposals, seated, ready = await self._pipe(build)
        return QueueView(
            {_text(k): Ticket.loads(v) for k, v in tickets.items()},
            {_text(k): int(v) for k, v in leases.items()},
            {_text(k): Proposal.loads(v) for k, v in proposals.items()},
            {_text(t) for t in ready},
            {_text(k): Seating.loads(v) for k, v in seated.items()},
        )

    async def propose(self, proposals: dict[str, Proposal]) -> None:
        if proposals:

            def build(pipe: Any) -> None:
                pipe.hset(PROPOSALS, mapping={t: p.dumps() for t, p in proposals.items()})

            await self._pipe(build)

    async def reopen(self, ticket_ids: list[str]) -> None:
        if ticket_ids:

            def build(pipe: Any) -> None:
                pipe.hdel(PROPOSALS, *ticket_ids)
                pipe.srem(READY, *ticket_ids)

            await self._pipe(build)

    async def seat(self, seatings: dict[str, Seating]) -> list[str]:
        if not seatings:
            return []
        args = [part for t, s in seatings.items() for part in (t, s.dumps())]
        gone = await self._script(self._seat, [TICKETS, SEATED, PROPOSALS], args)
        return [_text(t) for t in gone]

    async def searching(self) -> int:
        return int(await self.calls.call(lambda: self.calls.client.hlen(TICKETS)))

    async def matcher_lock(self, owner: str, ttl_ms: int) -> bool:
        return bool(await self._script(self._lock, [MATCHER], [owner, ttl_ms]))

    async def matcher_release(self, owner: str) -> None:
        await self._script(self._unlock, [MATCHER], [owner])

    async def last_opponents(self, players: list[str]) -> dict[str, list[str]]:
        if not players:
            return {}
        found = await self.calls.call(lambda: self.calls.client.mget([recent(p) for p in players]))
        return {p: json.loads(v) for p, v in zip(players, found, strict=True) if v is not None}

    async def remember_opponents(self, opponents: dict[str, list[str]], ttl_ms: int) -> None:
        if opponents:

            def build(pipe: Any) -> None:
                for player, them in opponents.items():
                    pipe.set(recent(player), json.dumps(them), px=ttl_ms)

            await self._pipe(build)

    async def penalty(self, player: str) -> Penalty:
        found = await self.calls.call(lambda: self.calls.client.get(penalty_key(player)))
        return Penalty() if found is None else Penalty(**json.loads(found))

    async def claim(self, key: str, ttl_ms: int) -> bool:
        claimed = await self.calls.call(
            lambda: self.calls.client.set(f"{TAG}:{key}", 1, nx=True, px=ttl_ms)
        )
        return bool(claimed)

    async def set_penalty(self, player: str, penalty: Penalty, ttl_ms: int) -> None:
        text = json.dumps({"abandons": penalty.abandons, "until_ms": penalty.until_ms})
        await self.calls.call(lambda: self.calls.client.set(penalty_key(player), text, px=ttl_ms))
