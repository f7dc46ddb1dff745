"""The duplicate rating in the database: moved once per event, as it is scored.

``rate_scored`` runs in ``close_event``'s transaction, after the marks are written:
the accounts' ratings before the event (``START`` for one never rated), the new
ones from ``server.duplicate.rate_event``, written back with each change in
``duplicate_rating_changes`` (an event is rated once: it is scored once). AI
entries are opponents at ``START`` and have no rating. ``duplicate_ratings`` lists
them best first (``GET /api/duplicate/ratings``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from server.duplicate import DealResult, rate_event
from server.duplicate.rating import START

from .guard import reachable
from .schema import accounts, duplicate_rating_changes, duplicate_ratings


@dataclass(frozen=True, slots=True)
class DuplicateRating:
    account_id: int
    name: str
    rating: float
    events: int


async def rate_scored(
    conn: AsyncConnection,
    event_id: int,
    results: Sequence[DealResult[int]],
    accounts_of: Mapping[int, int | None],
    now: datetime,
) -> int:
    """Move the ratings of the event's accounts (``accounts_of``: entry -> account, None
    for an AI); how many moved."""
    r = duplicate_ratings.c
    entries = {entry: account for entry, account in accounts_of.items() if account is not None}
    held = {
        row.account_id: (row.rating, row.events)
        for row in await conn.execute(
            select(r.account_id, r.rating, r.events).where(r.account_id.in_(entries.values()))
        )
    }
    before = {entry: held.get(account, (START, 0))[0] for entry, account in entries.items()}
    fixed = frozenset(entry for entry, account in accounts_of.items() if account is None)
    after = rate_event(results, before, fixed)
    if not after:
        return 0
    changes: list[dict[str, object]] = []
    new: list[dict[str, object]] = []
    known: list[dict[str, object]] = []
    for entry, rating in after.items():
        account = entries[entry]
        changes.append(
            {
                "event_id": event_id,
                "account_id": account,
                "rating_before": before[entry],
                "rating_after": rating,
            }
        )
        row = {
            "b_account": account,
            "b_rating": rating,
            "b_events": held.get(account, (0, 0))[1] + 1,
        }
        (known if account in held else new).append(row)
    await conn.execute(insert(duplicate_rating_changes), changes)
    if new:
        await conn.execute(
            insert(duplicate_ratings),
            [
                {
                    "account_id": n["b_account"],
                    "rating": n["b_rating"],
                    "events": 1,
                    "updated_at": now,
                }
                for n in new
            ],
        )
    if known:
        moved = (
            update(duplicate_ratings)
            .where(r.account_id == bindparam("b_account"))
            .values(rating=bindparam("b_rating"), events=bindparam("b_events"), updated_at=now)
        )
        await conn.execute(moved, known)
    return len(after)


async def duplicate_ratings_board(
    engine: AsyncEngine, limit: int, offset: int = 0
) -> list[DuplicateRating]:
    """The duplicate ratings, best first."""
    r = duplicate_ratings.c
    query = (
        select(r.account_id, accounts.c.name, r.rating, r.events)
        .join(accounts, accounts.c.id == r.account_id)
        .order_by(r.rating.desc(), r.account_id)
        .limit(limit)
        .offset(offset)
    )
    async with reachable(), engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [DuplicateRating(row.account_id, row.name, row.rating, row.events) for row in rows]
