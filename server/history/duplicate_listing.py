"""Which duplicate events there are: for a player's list, the daily event, the closing round.

``listed_events`` answers ``duplicate_list`` and ``GET /api/duplicate``: the events
not yet closed and those closed in the last ``CLOSED_DAYS`` days, soonest to close
first, each with the asking account's entry and how many deals it played.
``due_to_close`` gives the events past their close and not scored (the node scores
them); ``event_named`` finds the daily event of a day. Nothing here shows a seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .duplicate_events import StoredEvent, event_of, now_or, stored_from_row
from .guard import reachable
from .schema import duplicate_entries, duplicate_events, duplicate_results

CLOSED_DAYS = 7
LISTED_MAX = 100


@dataclass(frozen=True, slots=True)
class ListedEvent:
    """An event, and the viewer's entry in it (None: not entered) and deals played."""

    stored: StoredEvent
    entry_id: int | None
    played: int


async def listed_events(
    engine: AsyncEngine, viewer: int | None, *, now: datetime | None = None
) -> list[ListedEvent]:
    """The events open, to come, or closed in the last ``CLOSED_DAYS`` days."""
    moment = now_or(now)
    e = duplicate_events.c
    query = (
        select(duplicate_events)
        .where(e.closes_at >= moment - timedelta(days=CLOSED_DAYS))
        .order_by(e.closes_at, e.id)
        .limit(LISTED_MAX)
    )
    async with reachable(), engine.connect() as conn:
        events = [stored_from_row(row) for row in (await conn.execute(query)).all()]
        mine: dict[int, tuple[int, int]] = {}
        if viewer is not None and events:
            mine = await _entries_of(conn, viewer, [s.id for s in events])
    return [ListedEvent(s, *(mine[s.id] if s.id in mine else (None, 0))) for s in events]


async def _entries_of(
    conn: AsyncConnection, viewer: int, event_ids: list[int]
) -> dict[int, tuple[int, int]]:
    entries, r = duplicate_entries.c, duplicate_results.c
    played = select(func.count()).where(r.entry_id == entries.id).scalar_subquery()
    query = select(entries.event_id, entries.id, played).where(
        entries.account_id == viewer, entries.event_id.in_(event_ids)
    )
    rows = (await conn.execute(query)).all()
    return {row[0]: (int(row[1]), int(row[2])) for row in rows}


async def listed_event(engine: AsyncEngine, event_id: int, viewer: int | None) -> ListedEvent:
    """One event as ``listed_events`` shows it (``NoSuchEvent`` if there is none)."""
    async with reachable(), engine.connect() as conn:
        stored = await event_of(conn, event_id)
        mine = {} if viewer is None else await _entries_of(conn, viewer, [event_id])
    return ListedEvent(stored, *(mine.get(event_id, (None, 0))))


async def due_to_close(engine: AsyncEngine, *, now: datetime | None = None) -> list[int]:
    """The ids of the events past their close that are not scored yet."""
    e = duplicate_events.c
    query = (
        select(e.id).where(e.closes_at <= now_or(now), e.scored_at.is_(None)).order_by(e.closes_at)
    )
    async with reachable(), engine.connect() as conn:
        return [int(i) for i in (await conn.execute(query)).scalars().all()]


async def event_named(engine: AsyncEngine, name: str, opens: datetime) -> int | None:
    """The id of the event of that name opening at ``opens``, if there is one."""
    e = duplicate_events.c
    query = select(e.id).where(e.name == name, e.opens_at == opens).limit(1)
    async with reachable(), engine.connect() as conn:
        return (await conn.execute(query)).scalar_one_or_none()
