"""Duplicate events as ``tarot archive export`` writes them: closed and scored ones only.

One JSON object per event, ``{"duplicate_event": {...}}``, after the deals' records:
its definition (the seed too: once the event is closed it is no secret, and it lets
anyone deal the event's deals again), its standings and every result (with its
mark and the stored deal it was). An event still open is not exported: its seed
and results are secret until it closes (docs/DUPLICATE.md).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from server.duplicate import event_phase

from .duplicate_events import now_or, stored_from_row
from .duplicate_reads import deal_results, event_standings
from .guard import reachable
from .schema import duplicate_events

FORMAT = "cardavia-duplicate/1"


async def exported_events(
    engine: AsyncEngine, *, now: datetime | None = None
) -> AsyncIterator[dict[str, Any]]:
    """Each closed and scored event, oldest first, as the export's JSON object."""
    moment = now_or(now)
    e = duplicate_events.c
    query = select(duplicate_events).where(e.scored_at.is_not(None)).order_by(e.closes_at, e.id)
    async with reachable(), engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    for row in rows:
        stored = stored_from_row(row)
        event = stored.event
        if event_phase(event, moment) != "closed":
            continue
        standings = await event_standings(engine, stored.id, None, now=moment)
        results = []
        for index in range(event.deals):
            for r in await deal_results(engine, stored.id, index, None, now=moment):
                results.append(
                    {
                        "entry_id": r.entry_id,
                        "deal": r.deal_index,
                        "seat": r.seat,
                        "contract": r.contract,
                        "score": r.score,
                        "mark": r.mark,
                        "table_id": r.table_id,
                        "deal_number": r.deal_number,
                    }
                )
        yield {
            "duplicate_event": {
                "format": FORMAT,
                "id": stored.id,
                "name": event.name,
                "kind": event.kind,
                "scoring": event.scoring,
                "deals": event.deals,
                "seed": event.seed.hex(),
                "opens": event.opens.isoformat(),
                "closes": event.closes.isoformat(),
                "standings": [
                    {
                        "rank": s.rank,
                        "entry_id": s.entry_id,
                        "name": s.name,
                        "ai_level": s.ai_level,
                        "mark": s.mark,
                        "played": s.played,
                    }
                    for s in standings
                ],
                "results": results,
            }
        }
