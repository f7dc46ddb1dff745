"""What a duplicate event shows, and to whom: every query takes the viewer and refuses.

The rules of issue 24, enforced here and nowhere later (docs/DUPLICATE.md):

- nobody sees another's result on a deal before having played that deal
  (``deal_results``, and ``check_record_visible`` for the stored deal itself, which
  names its event: ``deals.event_id``);
- while the event is open an entrant sees their own results and their running
  standing (each deal against those who played it before them), nobody else's
  results (``entry_results``) and no standings (``event_standings``);
- once the event closes everything shows to everyone, the marks and standings
  once it is scored; until then its stored deals show in no profile, list of a
  player's deals or tables, or rating history (``deal_shown``).

``viewer`` is the asking account's id, None for someone not signed in. A refusal
is ``ResultsHidden`` and names what would show it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, case, exists, func, or_, select, union
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.sql.elements import ColumnElement

from server.duplicate import FieldSummary, event_phase, running_standing

from .duplicate_events import StoredEvent, event_of, now_or, utc
from .errors import NoSuchEvent, NotEntered, ResultsHidden
from .guard import reachable
from .schema import accounts, deals, duplicate_entries, duplicate_events, duplicate_results

Viewer = int | None  # the asking account's id; None: not signed in


@dataclass(frozen=True, slots=True)
class EntrantStanding:
    """An entry's place once the event is scored; ``name`` is None for an AI entry or a
    deleted account."""

    rank: int
    entry_id: int
    name: str | None
    ai_level: str | None
    mark: float
    played: int


@dataclass(frozen=True, slots=True)
class ShownResult:
    """One result as shown: who, the deal and seat, contract, score, mark (None until the
    event is scored), the stored deal it was."""

    entry_id: int
    name: str | None
    ai_level: str | None
    deal_index: int
    seat: int
    contract: str | None
    score: float
    mark: float | None
    table_id: str | None
    deal_number: int | None
    played_at: datetime


@dataclass(frozen=True, slots=True)
class RunningStanding:
    """An entrant's mean mark over the deals played so far (None before any)."""

    mark: float | None
    played: int
    deals: int


async def event_standings(
    engine: AsyncEngine,
    event_id: int,
    viewer: Viewer,
    *,
    now: datetime | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> list[EntrantStanding]:
    """The standings, best first, once the event is closed and scored."""
    entries, results = duplicate_entries.c, duplicate_results.c
    played = (
        select(func.count()).where(results.entry_id == entries.id).scalar_subquery().label("played")
    )
    query = (
        select(entries.id, entries.rank, entries.mark, entries.ai_level, accounts.c.name, played)
        .outerjoin(accounts, accounts.c.id == entries.account_id)
        .where(entries.event_id == event_id)
        .order_by(entries.rank, entries.id)
        .offset(offset)
        .limit(limit)
    )
    async with reachable(), engine.connect() as conn:
        stored = await event_of(conn, event_id)
        _check_scored(stored, now_or(now), "the standings")
        rows = (await conn.execute(query)).all()
    return [EntrantStanding(r.rank, r.id, r.name, r.ai_level, r.mark, r.played) for r in rows]


def _check_scored(stored: StoredEvent, now: datetime, what: str) -> None:
    if event_phase(stored.event, now) != "closed":
        closes = stored.event.closes.isoformat()
        raise ResultsHidden(f"{what} of event {stored.id} show once it closes, at {closes}")
    if stored.scored_at is None:
        raise ResultsHidden(f"event {stored.id} is closed and being scored: {what} show after")


def _shown() -> Select[Any]:
    entries, r = duplicate_entries.c, duplicate_results.c
    return (
        select(
            r.entry_id,
            accounts.c.name,
            entries.ai_level,
            r.deal_index,
            r.seat,
            r.contract,
            r.score,
            r.mark,
            r.table_id,
            r.deal_number,
            r.played_at,
        )
        .join(duplicate_entries, entries.id == r.entry_id)
        .outerjoin(accounts, accounts.c.id == entries.account_id)
    )


def _results(rows: Sequence[Row[Any]]) -> list[ShownResult]:
    return [
        ShownResult(
            row.entry_id,
            row.name,
            row.ai_level,
            row.deal_index,
            row.seat,
            row.contract,
            row.score,
            row.mark,
            row.table_id,
            row.deal_number,
            utc(row.played_at),
        )
        for row in rows
    ]


async def deal_results(
    engine: AsyncEngine,
    event_id: int,
    deal_index: int,
    viewer: Viewer,
    *,
    now: datetime | None = None,
) -> list[ShownResult]:
    """Every result of deal ``deal_index``, by seat, best first: to anyone once the event
    closes, before that only to an entrant who has played that deal (the results so far)."""
    r = duplicate_results.c
    query = (
        _shown()
        .where(r.event_id == event_id, r.deal_index == deal_index)
        .order_by(r.seat, r.score.desc(), r.entry_id)
    )
    async with reachable(), engine.connect() as conn:
        stored = await event_of(conn, event_id)
        if not 0 <= deal_index < stored.event.deals:
            raise NoSuchEvent(f"event {event_id} has deals 0-{stored.event.deals - 1}")
        if event_phase(stored.event, now_or(now)) != "closed":
            await _check_played(conn, stored, deal_index, viewer)
        rows = (await conn.execute(query)).all()
    return _results(rows)


async def _check_played(
    conn: AsyncConnection, stored: StoredEvent, deal_index: int, viewer: Viewer
) -> None:
    entries, r = duplicate_entries.c, duplicate_results.c
    played = exists().where(
        r.event_id == stored.id,
        r.deal_index == deal_index,
        entries.id == r.entry_id,
        entries.account_id == viewer,
    )
    if viewer is None or not (await conn.execute(select(played))).scalar():
        raise ResultsHidden(
            f"deal {deal_index} of event {stored.id} shows once you have played it,"
            f" or once the event closes at {stored.event.closes.isoformat()}"
        )


async def entry_results(
    engine: AsyncEngine,
    event_id: int,
    entry_id: int,
    viewer: Viewer,
    *,
    now: datetime | None = None,
) -> list[ShownResult]:
    """An entry's results, deal by deal: to anyone once the event closes, before that
    only to the entrant."""
    entries, r = duplicate_entries.c, duplicate_results.c
    owner = select(entries.account_id).where(entries.id == entry_id, entries.event_id == event_id)
    query = _shown().where(r.event_id == event_id, r.entry_id == entry_id).order_by(r.deal_index)
    async with reachable(), engine.connect() as conn:
        stored = await event_of(conn, event_id)
        found = (await conn.execute(owner)).first()
        if found is None:
            raise NotEntered(f"no entry {entry_id} in event {event_id}")
        if event_phase(stored.event, now_or(now)) != "closed" and (
            viewer is None or found.account_id != viewer
        ):
            raise ResultsHidden(
                f"another entrant's results in event {event_id} show once it closes,"
                f" at {stored.event.closes.isoformat()}"
            )
        rows = (await conn.execute(query)).all()
    return _results(rows)


async def own_standing(
    engine: AsyncEngine, event_id: int, viewer: int, *, now: datetime | None = None
) -> RunningStanding:
    """The viewer's running standing: each deal they played against the results recorded
    before theirs in that deal and seat; ``NotEntered`` if they did not enter."""
    entries = duplicate_entries.c
    entry = select(entries.id).where(entries.event_id == event_id, entries.account_id == viewer)
    async with reachable(), engine.connect() as conn:
        stored = await event_of(conn, event_id)
        entry_id = (await conn.execute(entry)).scalar_one_or_none()
        if entry_id is None:
            raise NotEntered(f"account {viewer} has not entered event {event_id}")
        rows = (await conn.execute(_fields_before(entry_id))).all()
    played = [
        (row.score, FieldSummary(int(row.beaten), int(row.tied), int(row.size), row.total))
        for row in rows
    ]
    mark = running_standing(stored.event.scoring, played)
    return RunningStanding(None if mark is None else float(mark), len(played), stored.event.deals)


def _fields_before(entry_id: int) -> Select[Any]:
    """Per deal of the entry: its score, and the count, beaten, tied and sum of the results
    recorded before it in its deal and seat (added up by the database)."""
    mine, other = duplicate_results.alias("mine"), duplicate_results.alias("other")
    before = and_(
        other.c.event_id == mine.c.event_id,
        other.c.deal_index == mine.c.deal_index,
        other.c.seat == mine.c.seat,
        other.c.played_at < mine.c.played_at,
    )
    return (
        select(
            mine.c.deal_index,
            mine.c.score,
            func.count(other.c.entry_id).label("size"),
            func.coalesce(func.sum(case((other.c.score < mine.c.score, 1), else_=0)), 0).label(
                "beaten"
            ),
            func.coalesce(func.sum(case((other.c.score == mine.c.score, 1), else_=0)), 0).label(
                "tied"
            ),
            func.coalesce(func.sum(other.c.score), 0).label("total"),
        )
        .select_from(mine.outerjoin(other, before))
        .where(mine.c.entry_id == entry_id)
        .group_by(mine.c.deal_index, mine.c.score)
        .order_by(mine.c.deal_index)
    )


def deal_shown(now: datetime | None = None) -> ColumnElement[bool]:
    """A condition on ``deals``: the row is no deal of an event still open (or to come).

    What anyone may see of a stored deal's result (the API's profiles, a player's deals
    and tables, rating changes): an open event shows its definition and nothing else.
    """
    e = duplicate_events.c
    unclosed = select(e.id).where(e.closes_at > now_or(now))
    return or_(deals.c.event_id.is_(None), deals.c.event_id.not_in(unclosed))


async def check_record_visible(
    engine: AsyncEngine,
    table_id: str,
    deal_number: int,
    viewer: Viewer,
    *,
    now: datetime | None = None,
) -> None:
    """``ResultsHidden`` if the stored deal is a deal of an open event the viewer has not
    played: its record would show the cards every entrant is still to play.

    The stored deal names its event (``deals.event_id``, written with it), so it is
    hidden from the moment it is stored, whatever the node has recorded of its results
    yet (in the background); its results name it too (a deal stored before 0010)."""
    d, r = deals.c, duplicate_results.c
    named = select(d.event_id, d.event_deal).where(
        d.table_id == table_id, d.deal_number == deal_number, d.event_id.is_not(None)
    )
    recorded = select(r.event_id, r.deal_index).where(
        r.table_id == table_id, r.deal_number == deal_number
    )
    async with reachable(), engine.connect() as conn:
        for event_id, deal_index in (await conn.execute(union(named, recorded))).all():
            stored = await event_of(conn, event_id)
            if event_phase(stored.event, now_or(now)) != "closed":
                await _check_played(conn, stored, deal_index, viewer)
