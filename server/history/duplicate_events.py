"""Duplicate events in the database: made, read back, entered (docs/DUPLICATE.md).

The rules of an event are ``server.duplicate``'s (its definition, its deals, its
scoring); the history keeps events and enforces who may do what when:

- an event is kept as defined; its seed (hex) is secret and never leaves the
  server before the event closes (``StoredEvent``'s repr hides it, as
  ``DuplicateEvent``'s does);
- an account enters an event once, while it is open (``AlreadyEntered``; the
  unique key ``(event_id, account_id)`` decides between two at once); a
  ``tables`` event also takes AI levels, which fill seats of its tables.

``duplicate_play`` records results, ``duplicate_close`` scores a closed event,
``duplicate_reads`` shows standings and results to whom may see them. Times
are handed in (``now``, the current time by default) and kept in UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from server.duplicate import DuplicateEvent, event_phase

from .errors import AlreadyEntered, BadEntry, EventNotOpen, NoSuchEvent, NotEntered
from .guard import reachable
from .schema import AI_LEVEL_MAX, duplicate_entries, duplicate_events


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as kept: its id, its definition (the seed is secret), when it was scored."""

    id: int
    event: DuplicateEvent
    created_at: datetime
    scored_at: datetime | None


def utc(moment: datetime) -> datetime:
    """``moment`` in UTC; a naive one (SQLite hands them back) is UTC already."""
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def now_or(now: datetime | None) -> datetime:
    return utc(now) if now is not None else datetime.now(UTC)


async def create_event(
    engine: AsyncEngine, event: DuplicateEvent, *, now: datetime | None = None
) -> int:
    """Keep ``event``; its id."""
    row = {
        "name": event.name,
        "seed": event.seed.hex(),
        "deals": event.deals,
        "kind": event.kind,
        "scoring": event.scoring,
        "opens_at": utc(event.opens),
        "closes_at": utc(event.closes),
        "created_at": now_or(now),
    }
    async with reachable(), engine.begin() as conn:
        made = insert(duplicate_events).values(row).returning(duplicate_events.c.id)
        return int((await conn.execute(made)).scalar_one())


async def stored_event(engine: AsyncEngine, event_id: int) -> StoredEvent:
    """Event ``event_id``, or ``NoSuchEvent``."""
    async with reachable(), engine.connect() as conn:
        return await event_of(conn, event_id)


async def event_of(conn: AsyncConnection, event_id: int) -> StoredEvent:
    found = (
        await conn.execute(select(duplicate_events).where(duplicate_events.c.id == event_id))
    ).first()
    if found is None:
        raise NoSuchEvent(f"no event {event_id}")
    return stored_from_row(found)


def stored_from_row(row: Row[Any]) -> StoredEvent:
    event = DuplicateEvent(
        row.name,
        bytes.fromhex(row.seed),
        row.deals,
        utc(row.opens_at),
        utc(row.closes_at),
        row.kind,
        row.scoring,
    )
    scored = utc(row.scored_at) if row.scored_at is not None else None
    return StoredEvent(row.id, event, utc(row.created_at), scored)


def check_open(stored: StoredEvent, now: datetime, doing: str) -> None:
    phase = event_phase(stored.event, now)
    if phase != "open" or stored.scored_at is not None:
        when = stored.event.opens if phase == "upcoming" else stored.event.closes
        verb = "opens" if phase == "upcoming" else "closed"
        raise EventNotOpen(f"event {stored.id} cannot be {doing}: it {verb} at {when.isoformat()}")


async def enter_event(
    engine: AsyncEngine,
    event_id: int,
    *,
    account_id: int | None = None,
    ai_level: str | None = None,
    now: datetime | None = None,
) -> int:
    """Enter an account (once) or an AI level (a ``tables`` event's filler) in an open
    event; the entry's id."""
    if (account_id is None) == (ai_level is None):
        raise BadEntry("an entry is an account or an AI level")
    moment = now_or(now)
    async with reachable(), engine.connect() as conn:
        stored = await event_of(conn, event_id)
    check_open(stored, moment, "entered")
    if ai_level is not None and (stored.event.kind != "tables" or len(ai_level) > AI_LEVEL_MAX):
        raise BadEntry(
            f"an AI enters only a tables event, with a level of 1-{AI_LEVEL_MAX} characters"
        )
    row = {
        "event_id": event_id,
        "account_id": account_id,
        "ai_level": ai_level,
        "entered_at": moment,
    }
    try:
        # The insert first: on SQLite the transaction then waits for the write lock
        # instead of failing to upgrade a read (the unique key refuses a second entry).
        async with reachable(), engine.begin() as conn:
            made = insert(duplicate_entries).values(row).returning(duplicate_entries.c.id)
            return int((await conn.execute(made)).scalar_one())
    except IntegrityError as e:
        if account_id is not None and await _entry_of(engine, event_id, account_id) is not None:
            raise AlreadyEntered(
                f"account {account_id} has entered event {event_id} already"
            ) from e
        raise BadEntry(f"no account {account_id}") from e


async def _entry_of(engine: AsyncEngine, event_id: int, account_id: int) -> int | None:
    query = select(duplicate_entries.c.id).where(
        duplicate_entries.c.event_id == event_id, duplicate_entries.c.account_id == account_id
    )
    async with reachable(), engine.connect() as conn:
        return (await conn.execute(query)).scalar_one_or_none()


async def entry_of(engine: AsyncEngine, event_id: int, account_id: int) -> int:
    """The account's entry in the event, or ``NotEntered``."""
    entry = await _entry_of(engine, event_id, account_id)
    if entry is None:
        raise NotEntered(f"account {account_id} has not entered event {event_id}")
    return entry
