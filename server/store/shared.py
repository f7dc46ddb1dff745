"""What the nodes sharing a store decide and count together: the operator's bans and
maintenance announcement (``server/node/moderation.py``), and how many connections all the
nodes have (the lobby's ``online``).

A ban or an announcement made through one node's admin API is kept by the store, so
it holds on every node that shares it and through a node's restart; a ban ends at its
time (epoch seconds, every node's clock the same: NTP). Each node tells its connection
count with a time to live: a node that died stops counting when it runs out.
A claim holds a name for one holder until it is let go or runs out (a duplicate
event's entrant plays at one table: ``server/node/duplicates.py``). A reminder is a
name due at a time, kept until forgotten: what a node that goes cannot do at that
time, another does (a rematch offer closed: ``server/node/rematch_timers.py``).
``MemoryShared`` is the memory store's: one process.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field
from typing import Literal, Protocol

BanKind = Literal["player", "address"]


@dataclass(slots=True)
class Decisions:
    """The operator's decisions in force: the maintenance announcement (None: none), and
    the bans by kind, each key (a case-folded name, an address) -> until (epoch s)."""

    maintenance: str | None = None
    bans: dict[BanKind, dict[str, float]] = field(
        default_factory=lambda: {"player": {}, "address": {}}
    )


class Shared(Protocol):
    async def decisions(self) -> Decisions:
        """The decisions in force now (bans over are left out, and forgotten)."""
        ...

    async def ban(self, kind: BanKind, key: str, until: float) -> None: ...

    async def unban(self, kind: BanKind, key: str) -> bool:
        """Lift a ban; whether there was one."""
        ...

    async def announce(self, maintenance: str | None) -> None:
        """Start a maintenance with this announcement, or end it (None)."""
        ...

    async def online(self, node_id: str, count: int, ttl_ms: int) -> int:
        """This node has ``count`` connections (for ``ttl_ms``): the total of the nodes."""
        ...

    async def claim(self, name: str, holder: str, ttl_ms: int) -> str:
        """Hold ``name`` for ``holder`` (``ttl_ms``) unless it is held: who holds it now."""
        ...

    async def release(self, name: str, holder: str) -> None:
        """Let ``name`` go if ``holder`` holds it (another holder keeps it)."""
        ...

    async def remind(self, name: str, due_ms: int) -> None:
        """Keep ``name`` as due at ``due_ms`` (ms since the epoch) until it is forgotten."""
        ...

    async def due(self, prefix: str, until_ms: int) -> list[str]:
        """The reminders named ``prefix...`` due at ``until_ms`` or before (at most 100)."""
        ...

    async def forget(self, name: str) -> None: ...


class MemoryShared:
    """``Shared`` in this process (the memory store's)."""

    def __init__(self) -> None:
        self._decisions = Decisions()
        self._online: dict[str, tuple[int, float]] = {}
        self._claims: dict[str, tuple[str, float]] = {}  # name -> holder, until (monotonic)
        # (until, name) of each claim made, soonest first: the run-out ones are dropped at
        # the next claim (one a name is asked again or let go of may be listed after it).
        self._claims_due: list[tuple[float, str]] = []
        self._reminders: dict[str, int] = {}  # name -> due (ms since the epoch)

    async def decisions(self) -> Decisions:
        now = time.time()
        for kept in self._decisions.bans.values():
            for key in [k for k, until in kept.items() if until <= now]:
                del kept[key]
        bans = {kind: dict(kept) for kind, kept in self._decisions.bans.items()}
        return Decisions(self._decisions.maintenance, bans)

    async def ban(self, kind: BanKind, key: str, until: float) -> None:
        self._decisions.bans[kind][key] = until

    async def unban(self, kind: BanKind, key: str) -> bool:
        return self._decisions.bans[kind].pop(key, None) is not None

    async def announce(self, maintenance: str | None) -> None:
        self._decisions.maintenance = maintenance

    async def online(self, node_id: str, count: int, ttl_ms: int) -> int:
        now = time.monotonic()
        self._online[node_id] = (count, now + ttl_ms / 1000)
        return sum(n for n, until in self._online.values() if until > now)

    async def claim(self, name: str, holder: str, ttl_ms: int) -> str:
        now = time.monotonic()
        self._forget_claims(now)
        held = self._claims.get(name)
        if held is not None:
            return held[0]
        until = now + ttl_ms / 1000
        self._claims[name] = (holder, until)
        heapq.heappush(self._claims_due, (until, name))
        return holder

    def _forget_claims(self, now: float) -> None:
        """Drop the claims run out (a claim no one asks for again would stay for ever)."""
        due = self._claims_due
        while due and due[0][0] <= now:
            until, name = heapq.heappop(due)
            held = self._claims.get(name)
            if held is not None and held[1] == until:
                del self._claims[name]

    async def release(self, name: str, holder: str) -> None:
        held = self._claims.get(name)
        if held is not None and held[0] == holder:
            del self._claims[name]

    async def remind(self, name: str, due_ms: int) -> None:
        self._reminders[name] = due_ms

    async def due(self, prefix: str, until_ms: int) -> list[str]:
        found = sorted((d, n) for n, d in self._reminders.items() if d <= until_ms)
        return [n for _, n in found if n.startswith(prefix)][:100]

    async def forget(self, name: str) -> None:
        self._reminders.pop(name, None)
