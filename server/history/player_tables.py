"""A player's tables for the history API (docs/API.md, ``/api/players/ID/tables``).

A table the player sat at is known from its stored deals (``seats``), so it is
listed while it is still being played; its totals, and so the player's total
and place, are known once the table has finished (``tables``, one row written
when its last deal ends). One bounded page, newest first (by its last deal). A
table of a duplicate event still open is not listed: its deals and totals are the
event's results (``duplicate_reads.deal_shown``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .duplicate_reads import deal_shown
from .guard import reachable
from .queries import instant
from .schema import deals, seats, tables

Json = dict[str, Any]


async def player_tables(
    engine: AsyncEngine, account_id: int, limit: int, offset: int, *, now: datetime | None = None
) -> list[Json]:
    """The tables the account sat at, the one with the newest deal first."""
    sat = (
        select(
            seats.c.table_id,
            func.min(seats.c.seat).label("seat"),
            func.count().label("deals_stored"),
            func.min(deals.c.started_at).label("first_started"),
            func.max(deals.c.finished_at).label("last_finished"),
        )
        .join(
            deals,
            (deals.c.table_id == seats.c.table_id) & (deals.c.deal_number == seats.c.deal_number),
        )
        .where(seats.c.account_id == account_id, deal_shown(now))
        .group_by(seats.c.table_id)
        .subquery()
    )
    query = (
        select(sat, tables.c.deals_played, tables.c.totals)
        .outerjoin(tables, tables.c.id == sat.c.table_id)
        .order_by(sat.c.last_finished.desc(), sat.c.table_id.desc())
        .limit(limit)
        .offset(offset)
    )
    async with reachable(), engine.connect() as conn:
        rows = (await conn.execute(query)).all()
        numbers = await _deal_numbers(conn, account_id, [row.table_id for row in rows])
    return [{**_table_line(row), "deal_numbers": numbers.get(row.table_id, [])} for row in rows]


async def _deal_numbers(
    conn: AsyncConnection, account_id: int, table_ids: list[str]
) -> dict[str, list[int]]:
    """The numbers of the account's stored deals at each of ``table_ids`` (a page of
    tables: bounded), in order: the links to the deals."""
    query = (
        select(seats.c.table_id, seats.c.deal_number)
        .where(seats.c.account_id == account_id, seats.c.table_id.in_(table_ids))
        .order_by(seats.c.table_id, seats.c.deal_number)
    )
    numbers: dict[str, list[int]] = {}
    for table_id, number in (await conn.execute(query)).all():
        numbers.setdefault(table_id, []).append(number)
    return numbers


def _table_line(row: Any) -> Json:
    totals = row.totals
    finished = totals is not None and 0 <= row.seat < len(totals)
    own = totals[row.seat] if finished else None
    return {
        "table_id": row.table_id,
        "started_at": instant(row.first_started),
        "finished_at": instant(row.last_finished),
        "seat": row.seat,
        "deals_stored": row.deals_stored,
        "finished": finished,
        "deals_played": row.deals_played if finished else None,
        "totals": totals if finished else None,
        "total": own,
        # 1 for the best total; a tie shares the better place.
        "place": 1 + sum(t > own for t in totals) if finished else None,
    }
