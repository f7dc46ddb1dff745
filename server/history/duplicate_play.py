"""Results of duplicate events: an entry plays the deals in order, one result each.

An entry's result names its deal (by index, from 0), its seat, the sheet's score
for that seat and its contract (None: every seat passed), and the stored deal
it was. It is refused (``BadEventResult``) unless it is the entry's next deal,
in the entry's seat (a robot event's ``ROBOT_SEAT``; a ``tables`` event's entry
keeps the seat of its first deal), while the event is open. A result recorded
again as it was is a no-op (a retry after a lost answer); another one for the
same deal is refused.

No result lands after its event was scored: it is inserted by one statement that
reads the event's row while ``scored_at`` is unset (under a share lock on
PostgreSQL, so the scorer's claim of the row waits for the insert, or the insert
for the claim and then finds the event scored).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, literal, select
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.sql.elements import ColumnElement

from server.duplicate import ROBOT_SEAT, BadResults, score_halves

from .duplicate_events import StoredEvent, check_open, event_of, now_or
from .errors import BadEventResult, EventNotOpen, NotEntered
from .guard import reachable
from .schema import TABLE_ID_MAX, duplicate_entries, duplicate_events, duplicate_results

CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")


@dataclass(frozen=True, slots=True)
class EventResult:
    """An entry's result on one deal: the sheet's score for its seat, the contract (None:
    every seat passed) and the stored deal it was (table id and deal number)."""

    entry_id: int
    deal_index: int
    seat: int
    score: float
    contract: str | None
    table_id: str | None = None
    deal_number: int | None = None


async def record_result(
    engine: AsyncEngine, result: EventResult, *, now: datetime | None = None
) -> bool:
    """Record an entry's result on its next deal; True if this call did (False: the same
    result was recorded already). ``BadEventResult``, ``EventNotOpen``, ``NotEntered``."""
    moment = now_or(now)
    _check_result_alone(result)
    async with reachable(), engine.connect() as conn:
        event_id = (
            await conn.execute(
                select(duplicate_entries.c.event_id).where(
                    duplicate_entries.c.id == result.entry_id
                )
            )
        ).scalar_one_or_none()
        if event_id is None:
            raise NotEntered(f"no entry {result.entry_id}")
        stored = await event_of(conn, event_id)
        earlier = (await conn.execute(_results_of(result.entry_id))).all()
    check_open(stored, moment, "played")
    if result.deal_index < len(earlier):
        return _recorded_again(result, earlier[result.deal_index])
    _check_result_fits(stored, result, earlier)
    try:
        async with reachable(), engine.begin() as conn:
            inserted = await conn.execute(_insert_result(conn, stored.id, result, moment))
    except IntegrityError:  # the same deal recorded meanwhile (a retry racing its first try)
        async with reachable(), engine.connect() as conn:
            again = (await conn.execute(_results_of(result.entry_id))).all()
        return _recorded_again(result, again[result.deal_index])
    if inserted.rowcount != 1:
        raise EventNotOpen(f"event {stored.id} cannot be played: it is scored")
    return True


def _results_of(entry_id: int) -> Any:
    r = duplicate_results.c
    return (
        select(r.deal_index, r.seat, r.score, r.contract, r.table_id, r.deal_number)
        .where(r.entry_id == entry_id)
        .order_by(r.deal_index)
    )


def _check_result_alone(result: EventResult) -> None:
    """What a result must be whatever its event."""
    try:
        score_halves(result.score)
    except BadResults as e:
        raise BadEventResult(e.message) from e
    if result.contract is not None and result.contract not in CONTRACTS:
        raise BadEventResult(
            f"a contract is one of {', '.join(CONTRACTS)}, not {result.contract!r}"
        )
    if result.contract is None and result.score != 0:
        raise BadEventResult(f"a deal passed out scores 0, not {result.score}")
    if (result.table_id is None) != (result.deal_number is None):
        raise BadEventResult(
            "a result names its stored deal by table id and deal number, or not at all"
        )
    if result.table_id is not None and not 1 <= len(result.table_id) <= TABLE_ID_MAX:
        raise BadEventResult(f"a table id has 1-{TABLE_ID_MAX} characters")
    if result.deal_number is not None and result.deal_number < 0:
        raise BadEventResult(f"a deal number is 0 or more, not {result.deal_number}")


def _check_result_fits(
    stored: StoredEvent, result: EventResult, earlier: Sequence[Row[Any]]
) -> None:
    """The result is the entry's next deal, in its seat."""
    index, deals = result.deal_index, stored.event.deals
    if not 0 <= index < deals:
        raise BadEventResult(f"event {stored.id} has deals 0-{deals - 1}, not {index}")
    if index > len(earlier):
        raise BadEventResult(f"deal {index} is played after deal {len(earlier)}: in order")
    seat = (
        ROBOT_SEAT if stored.event.kind == "robot" else earlier[0].seat if earlier else result.seat
    )
    if result.seat != seat:
        raise BadEventResult(f"entry {result.entry_id} plays in seat {seat}, not {result.seat}")


def _recorded_again(result: EventResult, row: Row[Any]) -> bool:
    kept = (row.seat, row.score, row.contract, row.table_id, row.deal_number)
    if kept != (result.seat, result.score, result.contract, result.table_id, result.deal_number):
        raise BadEventResult(
            f"entry {result.entry_id} has a result on deal {result.deal_index} already"
        )
    return False


def _insert_result(
    conn: AsyncConnection, event_id: int, result: EventResult, moment: datetime
) -> Any:
    """INSERT ... SELECT from the event's row while it is unscored: nothing if it is."""
    events = duplicate_events.c
    values = {
        "entry_id": result.entry_id,
        "deal_index": result.deal_index,
        "seat": result.seat,
        "table_id": result.table_id,
        "deal_number": result.deal_number,
        "contract": result.contract,
        "score": float(result.score),
        "played_at": moment,
    }
    columns: list[ColumnElement[Any]] = [
        literal(value, duplicate_results.c[key].type) for key, value in values.items()
    ]
    source = select(events.id, *columns).where(events.id == event_id, events.scored_at.is_(None))
    if conn.dialect.name == "postgresql":  # the scorer's claim waits for this insert, or it for it
        source = source.with_for_update(read=True)
    return insert(duplicate_results).from_select(["event_id", *values], source)


async def table_entry(engine: AsyncEngine, event_id: int, table_id: str, seat: int) -> int | None:
    """The entry that played ``seat`` at ``table_id`` in the event (a ``tables`` event's AI
    seat is entered when its first result is recorded, and found again by it)."""
    r = duplicate_results.c
    query = (
        select(r.entry_id)
        .where(r.event_id == event_id, r.table_id == table_id, r.seat == seat)
        .order_by(r.deal_index)
        .limit(1)
    )
    async with reachable(), engine.connect() as conn:
        return (await conn.execute(query)).scalar_one_or_none()


async def results_count(engine: AsyncEngine, entry_id: int) -> int:
    """How many deals the entry has played (its next deal's index)."""
    query = select(func.count()).where(duplicate_results.c.entry_id == entry_id)
    async with reachable(), engine.connect() as conn:
        return int((await conn.execute(query)).scalar_one())
