"""Deal reviews kept with the stored deals: analysed once, answered by any node after.

A review (``ai.review``'s JSON) is keyed by the stored deal (table id and deal
number, as ``deals`` keys it) and by its reviewer: the analysis's version and
settings (``ai.review.reviewer_of``), so that a better reviewer, or another
budget, makes a new review instead of serving an old one. Stored with ``ON
CONFLICT DO NOTHING``: two nodes that analysed the same deal at once keep the
first. The table is defined here, on the schema's ``metadata``, and created
by migration 0003.

Only a played deal is reviewable (``reviewable_record``): a cancelled one has
no decisions past its bids worth judging (docs/RECORD.md). Every hand of a
finished deal is public (its ``record`` event goes to every follower,
docs/PROTOCOL.md), so a stored deal's review shows nothing its record does not.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Column,
    DateTime,
    ForeignKeyConstraint,
    Integer,
    String,
    Table,
    select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from .deals import _insert
from .errors import HistoryError
from .guard import reachable
from .schema import TABLE_ID_MAX, Document, deals, metadata

REVIEWER_MAX = 64

deal_reviews = Table(
    "deal_reviews",
    metadata,
    Column("table_id", String(TABLE_ID_MAX), primary_key=True),
    Column("deal_number", Integer, primary_key=True),
    Column("reviewer", String(REVIEWER_MAX), primary_key=True),
    Column("review", Document, nullable=False),
    Column("reviewed_at", DateTime(timezone=True), nullable=False),
    ForeignKeyConstraint(
        ["table_id", "deal_number"], ["deals.table_id", "deals.deal_number"], ondelete="CASCADE"
    ),
)


class NotReviewable(HistoryError):
    """No stored deal by that id, or one that was cancelled."""

    code = "review_unavailable"


async def reviewable_record(engine: AsyncEngine, table_id: str, deal_number: int) -> dict[str, Any]:
    """The record of stored deal ``deal_number`` of ``table_id`` if it was played out;
    ``NotReviewable`` if there is no such deal or it was cancelled."""
    query = select(deals.c.record, deals.c.sheet).where(
        deals.c.table_id == table_id, deals.c.deal_number == deal_number
    )
    async with reachable(), engine.connect() as conn:
        found = (await conn.execute(query)).first()
    if found is None:
        raise NotReviewable(f"no stored deal {deal_number} of table {table_id!r}")
    if found.sheet.get("status") != "played":
        raise NotReviewable(
            f"deal {deal_number} of table {table_id!r} was cancelled: nothing to review"
        )
    record: dict[str, Any] = found.record
    return record


async def stored_review(
    engine: AsyncEngine, table_id: str, deal_number: int, reviewer: str
) -> dict[str, Any] | None:
    """The review ``reviewer`` made of the stored deal, if it is kept."""
    query = select(deal_reviews.c.review).where(
        deal_reviews.c.table_id == table_id,
        deal_reviews.c.deal_number == deal_number,
        deal_reviews.c.reviewer == reviewer,
    )
    async with reachable(), engine.connect() as conn:
        review: dict[str, Any] | None = (await conn.execute(query)).scalar_one_or_none()
    return review


async def store_review(
    engine: AsyncEngine,
    table_id: str,
    deal_number: int,
    reviewer: str,
    review: dict[str, Any],
    *,
    now: datetime | None = None,
) -> bool:
    """Keep ``review`` of the stored deal unless one is kept already; True if this call did.

    ``NotReviewable`` if the deal is not stored (yet: the node's writer may still hold it).
    """
    if len(reviewer) > REVIEWER_MAX:
        raise ValueError(f"a reviewer has at most {REVIEWER_MAX} characters, not {len(reviewer)}")
    row = {
        "table_id": table_id,
        "deal_number": deal_number,
        "reviewer": reviewer,
        "review": review,
        "reviewed_at": now or datetime.now(UTC),
    }
    try:
        async with reachable(), engine.begin() as conn:
            statement = _insert(conn, deal_reviews).values(row).on_conflict_do_nothing()
            return bool((await conn.execute(statement)).rowcount == 1)
    except IntegrityError as e:  # the foreign key: no such deal stored
        raise NotReviewable(f"no stored deal {deal_number} of table {table_id!r}") from e


class KeptReviews:
    """The reviews of one database: what a node's ``Reviews`` reads and writes."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def get(self, table_id: str, deal_number: int, reviewer: str) -> dict[str, Any] | None:
        return await stored_review(self.engine, table_id, deal_number, reviewer)

    async def put(
        self, table_id: str, deal_number: int, reviewer: str, review: dict[str, Any]
    ) -> bool:
        return await store_review(self.engine, table_id, deal_number, reviewer, review)

    async def record(self, table_id: str, deal_number: int) -> dict[str, Any]:
        return await reviewable_record(self.engine, table_id, deal_number)

    async def check_shown(self, table_id: str, deal_number: int) -> None:
        """``ResultsHidden`` for a deal of a duplicate event not closed yet: its review
        would show the cards every entrant is still to play; ``NotReviewable`` for a deal
        not stored (yet). A node keeps the review of a deal just played at its table in
        memory before the deal is stored, and only the stored deal says whether it is an
        open event's: none is answered as a stored deal's before it is stored (asked first:
        once stored, the deal names its event)."""
        from .duplicate_reads import check_record_visible

        await reviewable_record(self.engine, table_id, deal_number)
        await check_record_visible(self.engine, table_id, deal_number, None)
