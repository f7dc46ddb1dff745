"""Ratings in the database: each stored deal of a rated table moves its accounts' ratings once.

A deal is rated when every seat is an account or a calibrated AI level, at
least two are accounts and no account sits twice (a guest, an unknown
occupant or an uncalibrated AI makes the deal unrated; so does a cancelled
deal, or one with a single account). Only the accounts are compared, with
each other (``rating_model.updated``): AI seats never move and are no
opponent. Accounts start at ``START``. A rated quick-play seat left mid-deal
(``leavers``: seat -> account, from the deal writer) counts for its leaver as
the deal's last place (``rating_model.last_place``), against the other accounts.

Exactly once: rating a deal first inserts its ``rated_deals`` row with ``ON
CONFLICT DO NOTHING``, in the transaction that then changes the ratings, so a
second call (another node, a retry whose first answer was lost) finds the row
and changes nothing. The accounts' rows are locked (``FOR UPDATE`` on
PostgreSQL; SQLite has one writer at a time) in id order, so two tables'
deals that share a player do not lose each other's change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Table, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .guard import reachable
from .rating_ai import ai_rating
from .rating_model import Rating, last_place, seat_scores, updated
from .schema import deals, rated_deals, rating_changes, ratings, seats

Clock = Callable[[], datetime]
# Seat -> the account that left it mid-deal (a rated quick-play table): rated last.
Leavers = Mapping[int, int]
NO_LEAVERS: Leavers = {}


def _now() -> datetime:
    return datetime.now(UTC)


def _insert(conn: AsyncConnection, table: Table) -> postgresql.Insert | sqlite.Insert:
    """The dialect's INSERT, the one with ``on_conflict_do_nothing``."""
    if conn.dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one deal did to one account's rating."""

    table_id: str
    deal_number: int
    seat: int
    account_id: int
    before: float
    after: float
    deals: int  # the account's rated deals after this one
    rated_at: datetime


def may_be_rated(account_ids: Iterable[int | None]) -> bool:
    """False for a deal no account played: it is never rated, whoever else sat there."""
    return any(a is not None for a in account_ids)


async def mark_never_rated(
    conn: AsyncConnection, table_id: str, deal_number: int, when: datetime
) -> None:
    """Record a deal of no account as looked at, in the transaction that stores it: the
    writer then skips its rating (three statements a deal, most of the deals of a site
    of guests) and ``rate_pending`` never picks it up."""
    await conn.execute(
        _insert(conn, rated_deals)
        .values(table_id=table_id, deal_number=deal_number, rated=False, rated_at=when)
        .on_conflict_do_nothing()
    )


async def rate_deal(
    engine: AsyncEngine,
    table_id: str,
    deal_number: int,
    *,
    clock: Clock = _now,
    leavers: Leavers = NO_LEAVERS,
) -> tuple[RatingChange, ...] | None:
    """Rate the stored deal once: its accounts' changes (empty for an unrated deal),
    or None if it was rated before (or is not stored). ``leavers``: the seats left
    mid-deal by an account, rated last (the seat is stored with the AI that finished it)."""
    async with reachable(), engine.begin() as conn:
        return await _rate(conn, table_id, deal_number, clock(), leavers)


async def rate_deals(
    engine: AsyncEngine,
    keys: Sequence[tuple[str, int]],
    *,
    clock: Clock = _now,
    leavers: Mapping[tuple[str, int], Leavers] | None = None,
) -> list[RatingChange]:
    """Rate each stored deal of ``keys`` (table id, deal number) once: in one transaction
    on SQLite (one writer at a time), one per deal on PostgreSQL, where a transaction
    holding the locks of several deals' accounts, taken deal by deal rather than in one id
    order, could deadlock with another node's. Returns the changes this call made.
    ``leavers``: by deal, as ``rate_deal``'s."""
    left = leavers or {}
    made: list[RatingChange] = []
    if engine.dialect.name != "sqlite":
        for table_id, deal_number in keys:
            leaving = left.get((table_id, deal_number), NO_LEAVERS)
            made += (
                await rate_deal(engine, table_id, deal_number, clock=clock, leavers=leaving) or ()
            )
        return made
    async with reachable(), engine.begin() as conn:
        when = clock()
        for key in keys:
            made += await _rate(conn, *key, when, left.get(key, NO_LEAVERS)) or ()
    return made


async def rate_pending(engine: AsyncEngine, *, clock: Clock = _now) -> int:
    """Rate every stored deal not yet rated, oldest first; how many were looked at."""
    query = (
        select(deals.c.table_id, deals.c.deal_number)
        .outerjoin(
            rated_deals,
            (rated_deals.c.table_id == deals.c.table_id)
            & (rated_deals.c.deal_number == deals.c.deal_number),
        )
        .where(rated_deals.c.table_id.is_(None))
        .order_by(deals.c.finished_at, deals.c.table_id, deals.c.deal_number)
    )
    async with reachable(), engine.connect() as conn:
        pending = (await conn.execute(query)).all()
    done = 0
    for table_id, deal_number in pending:
        if await rate_deal(engine, table_id, deal_number, clock=clock) is not None:
            done += 1
    return done


async def _rate(
    conn: AsyncConnection,
    table_id: str,
    deal_number: int,
    when: datetime,
    leavers: Leavers = NO_LEAVERS,
) -> tuple[RatingChange, ...] | None:
    sheet = (
        await conn.execute(
            select(deals.c.sheet).where(
                deals.c.table_id == table_id, deals.c.deal_number == deal_number
            )
        )
    ).scalar_one_or_none()
    if sheet is None:
        return None
    marker = (
        _insert(conn, rated_deals)
        .values(table_id=table_id, deal_number=deal_number, rated=False, rated_at=when)
        .on_conflict_do_nothing()
    )
    if (await conn.execute(marker)).rowcount != 1:
        return None
    scores = seat_scores(sheet)
    occupants = (
        await conn.execute(
            select(
                seats.c.seat,
                seats.c.account_id,
                seats.c.guest_name,
                seats.c.ai_level,
                seats.c.left_account_id,
            )
            .where(seats.c.table_id == table_id, seats.c.deal_number == deal_number)
            .order_by(seats.c.seat)
        )
    ).all()
    # A seat left mid-deal is stored with the AI that finished it and the account that
    # left it (migration 0009; ``leavers`` for a deal stored before): its leaver is rated.
    accounts = [
        (leavers.get(row.seat) or row.left_account_id)
        if row.ai_level is not None
        else row.account_id
        for row in occupants
    ]
    calibrated = [row.ai_level is None or ai_rating(row.ai_level) is not None for row in occupants]
    known = [
        a is not None or row.ai_level is not None
        for a, row in zip(accounts, occupants, strict=True)
    ]
    present = [a for a in accounts if a is not None]
    if (
        scores is None
        or len(occupants) != 4
        or len(present) < 2
        or len(set(present)) != len(present)
        or not all(known)
        or not all(calibrated)
    ):
        return ()
    for seat, row in enumerate(occupants):
        if row.ai_level is not None and accounts[seat] is not None:
            scores = last_place(scores, seat)
    current = await _locked_ratings(conn, sorted(set(present)), when)
    before = [None if a is None else current[a] for a in accounts]
    after = updated(before, scores)
    changes = tuple(
        RatingChange(table_id, deal_number, seat, a, b.value, n.value, n.deals, when)
        for seat, (a, b, n) in enumerate(zip(accounts, before, after, strict=True))
        if a is not None and b is not None and n is not None
    )
    await _write(conn, changes)
    await conn.execute(
        update(rated_deals)
        .where(rated_deals.c.table_id == table_id, rated_deals.c.deal_number == deal_number)
        .values(rated=True)
    )
    return changes


async def _locked_ratings(
    conn: AsyncConnection, account_ids: Sequence[int], when: datetime
) -> dict[int, Rating]:
    """The accounts' ratings, a new account's row created at ``START``, locked for this
    transaction."""
    for account_id in account_ids:
        fresh = Rating()
        await conn.execute(
            _insert(conn, ratings)
            .values(account_id=account_id, rating=fresh.value, deals=0, updated_at=when)
            .on_conflict_do_nothing()
        )
    query = (
        select(ratings.c.account_id, ratings.c.rating, ratings.c.deals)
        .where(ratings.c.account_id.in_(account_ids))
        .order_by(ratings.c.account_id)
    )
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    rows = (await conn.execute(query)).all()
    return {row.account_id: Rating(row.rating, row.deals) for row in rows}


async def _write(conn: AsyncConnection, changes: Sequence[RatingChange]) -> None:
    # One account can sit in one seat only, so each change is its account's own row.
    for change in changes:
        await conn.execute(
            update(ratings)
            .where(ratings.c.account_id == change.account_id)
            .values(rating=change.after, deals=change.deals, updated_at=change.rated_at)
        )
    # The marker row this transaction inserted comes first (the changes reference it).
    await conn.execute(
        rating_changes.insert(),
        [
            {
                "table_id": c.table_id,
                "deal_number": c.deal_number,
                "seat": c.seat,
                "account_id": c.account_id,
                "rating_before": c.before,
                "rating_after": c.after,
                "deals_after": c.deals,
                "rated_at": c.rated_at,
            }
            for c in changes
        ],
    )


async def rating_of(engine: AsyncEngine, account_id: int) -> Rating:
    """An account's rating (``START``, provisional, when it has played no rated deal)."""
    async with reachable(), engine.connect() as conn:
        row = (
            await conn.execute(
                select(ratings.c.rating, ratings.c.deals).where(ratings.c.account_id == account_id)
            )
        ).one_or_none()
    return Rating() if row is None else Rating(row.rating, row.deals)


async def rating_history(engine: AsyncEngine, account_id: int) -> list[RatingChange]:
    """Every change of an account's rating, oldest first (what a rating chart draws)."""
    query = (
        select(rating_changes)
        .where(rating_changes.c.account_id == account_id)
        .order_by(
            rating_changes.c.rated_at, rating_changes.c.table_id, rating_changes.c.deal_number
        )
    )
    async with reachable(), engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [
        RatingChange(
            r.table_id,
            r.deal_number,
            r.seat,
            r.account_id,
            r.rating_before,
            r.rating_after,
            r.deals_after,
            r.rated_at,
        )
        for r in rows
    ]
