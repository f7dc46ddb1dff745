"""Finished deals and tables in the database: stored exactly once, read back for export.

A deal is keyed by (table id, deal number). Every writer inserts with ``ON
CONFLICT DO NOTHING`` (PostgreSQL and SQLite say it alike), so two nodes that
both saw a deal end, a writer that retries after a time-out whose insert had
in fact landed, or an import run twice store it once; the deal and its seats
go in one transaction. Nothing is stored that does not re-score: the record
is replayed by the engine and its sheet must be the engine's.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Table, exists, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from engine import RecordError, load_record, score

from .accounts import display_name
from .errors import BadRecord
from .guard import reachable
from .ratings import mark_never_rated, may_be_rated
from .schema import AI_LEVEL_MAX, TABLE_ID_MAX, accounts, deals, seats, tables


@dataclass(frozen=True, slots=True)
class Occupant:
    """Who sat in a seat: an account, a guest's name or an AI level (or nobody known)."""

    account_id: int | None = None
    guest_name: str | None = None
    ai_level: str | None = None


@dataclass(frozen=True, slots=True)
class FinishedDeal:
    table_id: str
    deal_number: int
    record: dict[str, Any]
    sheet: dict[str, Any]
    started_at: datetime
    finished_at: datetime
    seats: tuple[Occupant, ...] = field(default=())
    # False: never rated whoever sat there (a casual quick-play table: docs/RATINGS.md).
    rated: bool = True
    # (seat, account) of each account that left a rated quick-play seat during this deal:
    # the seat is stored with the AI that finished it, the leaver rated last (RATINGS.md).
    left: tuple[tuple[int, int], ...] = ()
    # A duplicate event's deal: the event and the deal's index in it, stored with the deal
    # (hidden while the event is open: duplicate_reads.check_record_visible). None else.
    event_id: int | None = None
    event_deal: int | None = None


@dataclass(frozen=True, slots=True)
class FinishedTable:
    table_id: str
    deals_played: int
    series: list[dict[str, Any]]  # every deal's sheet, in order
    totals: list[float]
    started_at: datetime
    finished_at: datetime


def checked(deal: FinishedDeal) -> FinishedDeal:
    """``deal`` if it can be stored: a finished, legal record whose sheet it is."""
    if not deal.table_id or len(deal.table_id) > TABLE_ID_MAX:
        raise BadRecord(f"a table id has 1-{TABLE_ID_MAX} characters, not {len(deal.table_id)}")
    if deal.deal_number < 0:
        raise BadRecord(f"a deal number is 0 or more, not {deal.deal_number}")
    if len(deal.seats) not in (0, 4):
        raise BadRecord(f"a deal has 4 seats or none known, not {len(deal.seats)}")
    for occupant in deal.seats:
        if occupant.ai_level is not None and len(occupant.ai_level) > AI_LEVEL_MAX:
            raise BadRecord(f"an AI level has at most {AI_LEVEL_MAX} characters")
    expected = sheet_of(deal.record)
    if _canonical(expected) != _canonical(deal.sheet):
        raise BadRecord(
            f"table {deal.table_id} deal {deal.deal_number}: the sheet is not the record's"
        )
    return deal


def sheet_of(record: Any) -> dict[str, Any]:
    """The engine's score sheet of ``record``; ``BadRecord`` (one line) if it is not valid."""
    try:
        return score(load_record(record)).to_json()
    except RecordError as e:
        raise BadRecord(f"not a valid tarot-record/1: {e}") from e


def imported_key(record: dict[str, Any]) -> str:
    """The table id an imported record is stored under: its digest, so a re-import is a no-op."""
    digest = hashlib.sha256(_canonical(record).encode()).hexdigest()
    return f"import-{digest[:32]}"


def _canonical(document: Any) -> str:
    return json.dumps(document, sort_keys=True, separators=(",", ":"))


def _insert(conn: AsyncConnection, table: Table) -> postgresql.Insert | sqlite.Insert:
    """The dialect's INSERT, the one with ``on_conflict_do_nothing``."""
    if conn.dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


async def store_deal(engine: AsyncEngine, deal: FinishedDeal) -> bool:
    """Store ``deal`` unless it is there already; True if this call stored it."""
    return await store_checked_deals(engine, [checked(deal)]) == 1


async def store_checked_deals(engine: AsyncEngine, batch: Sequence[FinishedDeal]) -> int:
    """Store each deal of ``batch`` (each ``checked`` already) unless it is there, all in
    one transaction (a commit per deal cost the node more than writing it); how many this
    call stored. In key order: two nodes' batches of the same deals then wait for each
    other's rows in one order on PostgreSQL, never in a deadlock."""
    ordered = sorted(batch, key=lambda deal: (deal.table_id, deal.deal_number))
    async with reachable(), engine.begin() as conn:
        return sum([await _store_one(conn, deal) for deal in ordered])


async def _store_one(conn: AsyncConnection, deal: FinishedDeal) -> bool:
    row = {
        "table_id": deal.table_id,
        "deal_number": deal.deal_number,
        "record": deal.record,
        "sheet": deal.sheet,
        "started_at": deal.started_at,
        "finished_at": deal.finished_at,
    }
    if deal.event_id is not None:  # named only for an event's deal, as leavers below
        row |= {"event_id": deal.event_id, "event_deal": deal.event_deal}
    statement = _insert(conn, deals).values(row).on_conflict_do_nothing()
    inserted = (await conn.execute(statement)).rowcount == 1
    if inserted and deal.seats:
        left = dict(deal.left)  # kept with the seat: whoever rates the deal rates them last
        await conn.execute(
            _insert(conn, seats).on_conflict_do_nothing(),
            [
                {
                    "table_id": deal.table_id,
                    "deal_number": deal.deal_number,
                    "seat": seat,
                    "account_id": who.account_id,
                    "guest_name": who.guest_name,
                    "ai_level": who.ai_level,
                }
                # Named only when someone left: a deal without leavers is stored as before.
                | ({"left_account_id": left.get(seat) if who.ai_level else None} if left else {})
                for seat, who in enumerate(deal.seats)
            ],
        )
        if not deal.rated or not may_be_rated(who.account_id for who in deal.seats):
            await mark_never_rated(conn, deal.table_id, deal.deal_number, deal.finished_at)
    return inserted


async def store_table(engine: AsyncEngine, table: FinishedTable) -> bool:
    """Store a finished table (its series and totals) once; True if this call stored it."""
    row = {
        "id": table.table_id,
        "deals_played": table.deals_played,
        "series": table.series,
        "totals": table.totals,
        "started_at": table.started_at,
        "finished_at": table.finished_at,
    }
    async with reachable(), engine.begin() as conn:
        statement = _insert(conn, tables).values(row).on_conflict_do_nothing()
        return (await conn.execute(statement)).rowcount == 1


async def played_sheets(engine: AsyncEngine, table_id: str) -> list[dict[str, Any]]:
    """The sheets of the table's stored deals that were played (not cancelled), in order."""
    query = select(deals.c.sheet).where(deals.c.table_id == table_id).order_by(deals.c.deal_number)
    async with reachable(), engine.connect() as conn:
        sheets = (await conn.execute(query)).scalars().all()
    return [sheet for sheet in sheets if sheet.get("status") != "cancelled"]


@dataclass(frozen=True, slots=True)
class StoredDeal:
    table_id: str
    deal_number: int
    record: dict[str, Any]
    sheet: dict[str, Any]
    finished_at: datetime


async def stored_deals(
    engine: AsyncEngine, *, player: str | None = None, since: datetime | None = None
) -> AsyncIterator[StoredDeal]:
    """The stored deals, oldest first: all, or those ``player`` sat in (an account's
    display name or a guest's name), finished at ``since`` or later."""
    query = select(
        deals.c.table_id, deals.c.deal_number, deals.c.record, deals.c.sheet, deals.c.finished_at
    ).order_by(deals.c.finished_at, deals.c.table_id, deals.c.deal_number)
    if since is not None:
        query = query.where(deals.c.finished_at >= since)
    if player is not None:
        shown, key = display_name(player)
        sat = (
            select(seats.c.seat)
            .outerjoin(accounts, accounts.c.id == seats.c.account_id)
            .where(
                seats.c.table_id == deals.c.table_id,
                seats.c.deal_number == deals.c.deal_number,
                (accounts.c.name_key == key) | (seats.c.guest_name == shown),
            )
        )
        query = query.where(exists(sat))
    async with reachable(), engine.connect() as conn:
        result = await conn.stream(query)
        async for row in result:
            yield StoredDeal(row.table_id, row.deal_number, row.record, row.sheet, row.finished_at)


async def count_rows(
    engine: AsyncEngine, names: Sequence[str] = ("deals", "seats")
) -> dict[str, int]:
    """Rows per table (for tests and the figures in docs/DEPLOY.md)."""
    known = {"deals": deals, "seats": seats, "tables": tables, "accounts": accounts}
    async with reachable(), engine.connect() as conn:
        return {
            name: int(
                (await conn.execute(select(func.count()).select_from(known[name]))).scalar_one()
            )
            for name in names
        }
