"""What the history's read-only HTTP API shows (docs/API.md): players, the leaderboard,
a player's deals and rating changes, one stored deal. Plain JSON-ready values.

Every list is one bounded page (``limit`` at most ``PAGE_MAX``, an ``offset``);
a profile's statistics are those of the player's last ``STATS_DEALS`` deals, so
that no request reads more than a bounded number of rows. Only finished deals
are ever stored (``server/node/archive.py``), so nothing here can show a card that
is still hidden at a table; a deal of a duplicate event shows in none of them until
the event closes (``duplicate_reads.deal_shown``: an open event shows its definition
and nothing else, docs/API.md).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Select, Table, and_, func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.sql.elements import ColumnElement

from .accounts import display_name
from .duplicate_reads import deal_shown
from .guard import reachable
from .rating_model import PROVISIONAL_DEALS, START
from .schema import accounts, deals, rating_changes, ratings, seats

PAGE_MAX = 100
RATINGS_PAGE_MAX = 1000  # a chart's points: small rows
STATS_DEALS = 1000
RECENT_DEALS = 10
CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")
Json = dict[str, Any]


def instant(moment: datetime) -> str:
    """ISO 8601 in UTC, to the millisecond (SQLite hands back naive UTC datetimes)."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def rating_json(value: float | None, deals_rated: int | None) -> Json:
    rated = deals_rated or 0
    return {
        "value": round(START if value is None else value, 1),
        "deals": rated,
        "provisional": rated < PROVISIONAL_DEALS,
    }


async def account_id_of(engine: AsyncEngine, name: str) -> int | None:
    """The id of the account named ``name`` (in any case), if there is one."""
    _shown, key = display_name(name)
    async with reachable(), engine.connect() as conn:
        found = await conn.execute(select(accounts.c.id).where(accounts.c.name_key == key))
        return found.scalar_one_or_none()


async def account_name(engine: AsyncEngine, account_id: int) -> str | None:
    async with reachable(), engine.connect() as conn:
        found = await conn.execute(select(accounts.c.name).where(accounts.c.id == account_id))
        return found.scalar_one_or_none()


async def leaderboard(engine: AsyncEngine, limit: int, offset: int) -> list[Json]:
    """Rated accounts, best first (ties: the older account first)."""
    query = (
        select(accounts.c.id, accounts.c.name, ratings.c.rating, ratings.c.deals)
        .join(ratings, ratings.c.account_id == accounts.c.id)
        .where(ratings.c.deals > 0)
        .order_by(ratings.c.rating.desc(), accounts.c.id)
        .limit(limit)
        .offset(offset)
    )
    async with reachable(), engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [
        {
            "rank": offset + i + 1,
            "id": r.id,
            "name": r.name,
            "rating": rating_json(r.rating, r.deals),
        }
        for i, r in enumerate(rows)
    ]


def _deals_of(account_id: int, now: datetime | None) -> Select[Any]:
    """The account's stored deals, newest first, with its seat and its rating change (none
    of an event still open)."""
    change = and_(
        rating_changes.c.table_id == seats.c.table_id,
        rating_changes.c.deal_number == seats.c.deal_number,
        rating_changes.c.seat == seats.c.seat,
    )
    return (
        select(
            deals.c.table_id,
            deals.c.deal_number,
            deals.c.sheet,
            # Only the record's poignees (who showed one), not the whole record: a profile
            # reads up to STATS_DEALS rows.
            deals.c.record["poignees"].label("poignees"),
            deals.c.finished_at,
            seats.c.seat,
            rating_changes.c.rating_before,
            rating_changes.c.rating_after,
        )
        .join(
            seats,
            (seats.c.table_id == deals.c.table_id) & (seats.c.deal_number == deals.c.deal_number),
        )
        .outerjoin(rating_changes, change)
        .where(seats.c.account_id == account_id, deal_shown(now))
        .order_by(deals.c.finished_at.desc(), deals.c.table_id.desc(), deals.c.deal_number.desc())
    )


def _same_deal(table: Table) -> ColumnElement[bool]:
    """``table``'s row is of that stored deal (its table id and deal number)."""
    return and_(table.c.table_id == deals.c.table_id, table.c.deal_number == deals.c.deal_number)


def _deal_line(row: Any) -> Json:
    sheet = row.sheet
    line: Json = {
        "table_id": row.table_id,
        "deal_number": row.deal_number,
        "finished_at": instant(row.finished_at),
        "seat": row.seat,
        "status": sheet.get("status"),
        "taker": sheet.get("taker"),
        "contract": sheet.get("contract"),
        "made": sheet.get("made"),
        "score": sheet.get("scores", [0, 0, 0, 0])[row.seat],
        "rating_change": None,
    }
    if row.rating_after is not None:
        line["rating_change"] = round(row.rating_after - row.rating_before, 2)
    return line


async def player_deals(
    engine: AsyncEngine, account_id: int, limit: int, offset: int, *, now: datetime | None = None
) -> list[Json]:
    query = _deals_of(account_id, now).limit(limit).offset(offset)
    async with reachable(), engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [_deal_line(row) for row in rows]


async def profile(
    engine: AsyncEngine, account_id: int, *, now: datetime | None = None
) -> Json | None:
    """The account's name, rating, deals played and statistics, recent deals; None if no
    such account."""
    async with reachable(), engine.connect() as conn:
        found = (
            await conn.execute(
                select(accounts.c.id, accounts.c.name, ratings.c.rating, ratings.c.deals)
                .outerjoin(ratings, ratings.c.account_id == accounts.c.id)
                .where(accounts.c.id == account_id)
            )
        ).one_or_none()
        if found is None:
            return None
        rows = (await conn.execute(_deals_of(account_id, now).limit(STATS_DEALS))).all()
        stored = await _count_deals(conn, account_id, now)
    return {
        "id": found.id,
        "name": found.name,
        "rating": rating_json(found.rating, found.deals),
        "deals_stored": stored,
        "statistics": statistics([(row.sheet, row.seat, row.poignees) for row in rows]),
        "recent_deals": [_deal_line(row) for row in rows[:RECENT_DEALS]],
    }


async def _count_deals(conn: AsyncConnection, account_id: int, now: datetime | None) -> int:
    query = (
        select(func.count())
        .select_from(seats.join(deals, _same_deal(seats)))
        .where(seats.c.account_id == account_id, deal_shown(now))
    )
    return int((await conn.execute(query)).scalar_one())


def statistics(deals_seen: list[tuple[Json, int, Any]]) -> Json:
    """Deals played, taken and made by contract, poignees shown, chelems made, points: from
    (sheet, seat, the record's poignees) of each deal.

    >>> statistics([({"status": "played", "taker": 1, "contract": "garde", "made": True,
    ...   "bonuses": [], "scores": [-50, 150, -50, -50]}, 1, {"1": ["T1"]})])["contracts"]["garde"]
    {'taken': 1, 'made': 1}
    """
    sheets = [(sheet, seat) for sheet, seat, _ in deals_seen]
    played = [(sheet, seat) for sheet, seat in sheets if sheet.get("status") == "played"]
    shown = sum(str(seat) in (poignees or {}) for _, seat, poignees in deals_seen)
    contracts = {name: {"taken": 0, "made": 0} for name in CONTRACTS}
    chelems = 0
    for sheet, seat in played:
        if sheet.get("taker") != seat or sheet.get("contract") not in contracts:
            continue
        contracts[sheet["contract"]]["taken"] += 1
        contracts[sheet["contract"]]["made"] += bool(sheet.get("made"))
        bonuses = sheet.get("bonuses", [])
        chelems += any(b.get("kind") == "chelem" and b.get("side") == "taker" for b in bonuses)
    return {
        "over_deals": len(sheets),
        "played": len(played),
        "cancelled": len(sheets) - len(played),
        "taken": sum(c["taken"] for c in contracts.values()),
        "contracts": contracts,
        "poignees_shown": shown,
        "chelems_made": chelems,
        "points": sum(sheet["scores"][seat] for sheet, seat in played),
    }


async def rating_history(
    engine: AsyncEngine, account_id: int, limit: int, offset: int, *, now: datetime | None = None
) -> list[Json]:
    """The account's rating after each rated deal, oldest first (a chart's points); not
    those of an event still open: a change says how the deal went."""
    query = (
        select(rating_changes)
        .join(deals, _same_deal(rating_changes))
        .where(rating_changes.c.account_id == account_id, deal_shown(now))
        .order_by(
            rating_changes.c.rated_at, rating_changes.c.table_id, rating_changes.c.deal_number
        )
        .limit(limit)
        .offset(offset)
    )
    async with reachable(), engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [
        {
            "table_id": r.table_id,
            "deal_number": r.deal_number,
            "rated_at": instant(r.rated_at),
            "before": round(r.rating_before, 2),
            "after": round(r.rating_after, 2),
            "deals": r.deals_after,
        }
        for r in rows
    ]


async def stored_deal(engine: AsyncEngine, table_id: str, deal_number: int) -> Json | None:
    """One stored deal: its seats (who sat there), record, sheet and rating changes."""
    async with reachable(), engine.connect() as conn:
        deal = (
            await conn.execute(
                select(deals).where(
                    deals.c.table_id == table_id, deals.c.deal_number == deal_number
                )
            )
        ).one_or_none()
        if deal is None:
            return None
        sat = (
            await conn.execute(
                select(seats, accounts.c.name)
                .outerjoin(accounts, accounts.c.id == seats.c.account_id)
                .where(seats.c.table_id == table_id, seats.c.deal_number == deal_number)
                .order_by(seats.c.seat)
            )
        ).all()
        changes = (
            await conn.execute(
                select(rating_changes)
                .where(
                    rating_changes.c.table_id == table_id,
                    rating_changes.c.deal_number == deal_number,
                )
                .order_by(rating_changes.c.seat)
            )
        ).all()
    return {
        "table_id": deal.table_id,
        "deal_number": deal.deal_number,
        "started_at": instant(deal.started_at),
        "finished_at": instant(deal.finished_at),
        "seats": [_occupant(row) for row in sat],
        "rating_changes": [
            {"seat": c.seat, "before": round(c.rating_before, 2), "after": round(c.rating_after, 2)}
            for c in changes
        ],
        "record": deal.record,
        "sheet": deal.sheet,
    }


def _occupant(row: Any) -> Json:
    if row.account_id is not None:
        return {"seat": row.seat, "kind": "account", "account_id": row.account_id, "name": row.name}
    if row.ai_level is not None:
        return {"seat": row.seat, "kind": "ai", "ai_level": row.ai_level}
    if row.guest_name is not None:
        return {"seat": row.seat, "kind": "guest", "name": row.guest_name}
    return {"seat": row.seat, "kind": "unknown"}
