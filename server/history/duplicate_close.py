"""Scoring a closed duplicate event, once: every result's mark, every entry's standing.

``close_event`` claims the event (sets ``scored_at`` where it is unset: of two
closers at once, one finds it set and does nothing), reads its entries and
results, scores them with ``server.duplicate.score_event`` and writes the marks
and standings, all in one transaction. Results are marked one statement per
deal, seat and score (every result of one score in one deal and seat has one
mark: a few thousand statements for an event of 200,000 results).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from server.duplicate import DealResult, EventScores, event_phase, score_event

from .duplicate_events import now_or, stored_event
from .duplicate_rating import rate_scored
from .errors import EventNotOpen, EventStillOpen
from .guard import reachable
from .schema import duplicate_entries, duplicate_events, duplicate_results


async def close_event(
    engine: AsyncEngine, event_id: int, *, now: datetime | None = None
) -> EventScores[int] | None:
    """Score a closed event once: every result's mark, every entry's standing and rank.
    The scores, or None if the event was scored already. ``EventStillOpen`` before it closes."""
    moment = now_or(now)
    stored = await stored_event(engine, event_id)
    if event_phase(stored.event, moment) != "closed":
        raise EventStillOpen(f"event {event_id} closes at {stored.event.closes.isoformat()}")
    events, entries, results = duplicate_events.c, duplicate_entries.c, duplicate_results.c
    async with reachable(), engine.begin() as conn:
        claim = update(duplicate_events).where(events.id == event_id, events.scored_at.is_(None))
        if (await conn.execute(claim.values(scored_at=moment))).rowcount != 1:
            return None
        accounts_of: dict[int, int | None] = {
            row.id: row.account_id
            for row in await conn.execute(
                select(entries.id, entries.account_id).where(entries.event_id == event_id)
            )
        }
        rows = await conn.execute(
            select(results.entry_id, results.deal_index, results.seat, results.score).where(
                results.event_id == event_id
            )
        )
        played = [DealResult(*row) for row in rows]
        scores = score_event(played, list(accounts_of), stored.event.deals, stored.event.scoring)
        await _write_scores(conn, event_id, scores)
        await rate_scored(conn, event_id, played, accounts_of, moment)  # the duplicate rating
    return scores


async def _write_scores(conn: AsyncConnection, event_id: int, scores: EventScores[int]) -> None:
    """Every result's mark, one statement per deal, seat and score (every result of one
    score in one deal and seat has one mark), and every entry's standing."""
    results, entries = duplicate_results.c, duplicate_entries.c
    marks: dict[tuple[int, int, float], float] = {}
    for group in scores.seats:
        for score, mark in zip(group.scores, group.marks, strict=True):
            marks[group.deal, group.seat, score] = mark
    if marks:
        by_score = (
            update(duplicate_results)
            .where(
                results.event_id == event_id,
                results.deal_index == bindparam("b_deal"),
                results.seat == bindparam("b_seat"),
                results.score == bindparam("b_score"),
            )
            .values(mark=bindparam("b_mark"))
        )
        await conn.execute(
            by_score,
            [
                {"b_deal": d, "b_seat": s, "b_score": x, "b_mark": m}
                for (d, s, x), m in marks.items()
            ],
        )
    if scores.standings:
        standing = (
            update(duplicate_entries)
            .where(entries.id == bindparam("b_id"))
            .values(mark=bindparam("b_mark"), rank=bindparam("b_rank"))
        )
        await conn.execute(
            standing,
            [
                {"b_id": s.entrant, "b_mark": float(s.mark), "b_rank": s.rank}
                for s in scores.standings
            ],
        )


async def end_event(
    engine: AsyncEngine, event_id: int, *, now: datetime | None = None
) -> EventScores[int] | None:
    """Close an open event now (an operator's ``tarot duplicate close``: its window cut
    short) and score it; an event closed already is only scored. ``EventNotOpen`` before
    it opens. The scores, or None if it was scored already."""
    moment = now_or(now)
    stored = await stored_event(engine, event_id)
    if moment <= stored.event.opens:
        raise EventNotOpen(f"event {event_id} opens at {stored.event.opens.isoformat()}")
    if moment < stored.event.closes:
        events = duplicate_events.c
        async with reachable(), engine.begin() as conn:
            await conn.execute(
                update(duplicate_events).where(events.id == event_id).values(closes_at=moment)
            )
    return await close_event(engine, event_id, now=moment)
