"""The queue's tickets and where they are kept: one queue for every node of a store.

A ticket is one searching player. Beside it the queue keeps, per ticket: its lease
(renewed by the player's node while the player is connected: a node that dies lets its
tickets go, no other ticket is touched), the ready check proposed to it, whether it
confirmed, and the seat it was given. Each part is written by one side: the player's
node writes the ticket, its lease and its confirmation; the matcher (one node at a
time: ``matcher_lock``) writes proposals and seats. ``MemoryTickets`` keeps them for
one node; ``server/store/redis/tickets.py`` in Redis for many.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Ticket:
    ticket_id: str
    player: str  # "account:ID", or "guest:ID" (one per connection)
    name: str  # the name the player sits under
    account_id: int | None
    rating: float
    mode: str  # "rated" or "casual"
    deals: int
    since_ms: int
    node: str  # the node the player is connected to

    def dumps(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def loads(cls, text: str | bytes) -> Ticket:
        return cls(**json.loads(text))


@dataclass(frozen=True, slots=True)
class Proposal:
    """A ready check: confirm ``match_id`` before ``deadline_ms``."""

    match_id: str
    deadline_ms: int
    humans: int
    ai: int

    def dumps(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def loads(cls, text: str | bytes) -> Proposal:
        return cls(**json.loads(text))


@dataclass(frozen=True, slots=True)
class Seating:
    """The seat a confirmed ticket was given: its token takes it (as a ``resume``)."""

    table_id: str
    seat: int
    token: str

    def dumps(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def loads(cls, text: str | bytes) -> Seating:
        return cls(**json.loads(text))


@dataclass(slots=True)
class QueueView:
    """The whole queue as the matcher reads it at once."""

    tickets: dict[str, Ticket] = field(default_factory=dict)
    leases: dict[str, int] = field(default_factory=dict)
    proposals: dict[str, Proposal] = field(default_factory=dict)
    ready: set[str] = field(default_factory=set)
    seated: dict[str, Seating] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TicketNews:
    """What a player's node reads of one of its tickets."""

    present: bool
    proposal: Proposal | None = None
    seating: Seating | None = None


@dataclass(frozen=True, slots=True)
class Penalty:
    """A player's abandons of rated quick-play tables, and until when it may not queue."""

    abandons: int = 0
    until_ms: int = 0


class TicketStore(Protocol):
    async def add(self, ticket: Ticket, lease_until_ms: int) -> str | None:
        """Queue ``ticket``; the id of the player's ticket already queued instead, if any."""
        ...

    async def cancel(self, ticket_ids: list[str]) -> dict[str, Seating]:
        """Remove tickets and all that goes with them (gone ones are ignored); the seats
        the matcher had given them, which nobody will take now (the caller gives them up)."""
        ...

    async def renew(self, ticket_ids: list[str], until_ms: int) -> None: ...

    async def news(self, ticket_ids: list[str]) -> dict[str, TicketNews]: ...

    async def confirm(self, ticket_id: str, match_id: str) -> bool:
        """The ticket confirms its ready check; False if none of ``match_id`` is open."""
        ...

    async def read(self) -> QueueView: ...

    async def propose(self, proposals: dict[str, Proposal]) -> None: ...

    async def reopen(self, ticket_ids: list[str]) -> None:
        """Back to searching: their ready check is dropped (their ``since_ms`` kept)."""
        ...

    async def seat(self, seatings: dict[str, Seating]) -> list[str]:
        """Give the tickets their seats; those gone meanwhile (cancelled since the matcher
        read the queue) get none: their ids (the matcher gives their seats up)."""
        ...

    async def searching(self) -> int:
        """How many tickets are queued, on every node."""
        ...

    async def matcher_lock(self, owner: str, ttl_ms: int) -> bool:
        """Take or renew the right to match for ``ttl_ms``; False while another node has it."""
        ...

    async def matcher_release(self, owner: str) -> None:
        """Let the right to match go if ``owner`` holds it (a node that stops)."""
        ...

    async def last_opponents(self, players: list[str]) -> dict[str, list[str]]: ...

    async def remember_opponents(self, opponents: dict[str, list[str]], ttl_ms: int) -> None: ...

    async def penalty(self, player: str) -> Penalty: ...

    async def set_penalty(self, player: str, penalty: Penalty, ttl_ms: int) -> None: ...

    async def claim(self, key: str, ttl_ms: int) -> bool:
        """True the first time ``key`` is claimed (for ``ttl_ms``), on every node."""
        ...
