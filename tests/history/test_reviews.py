"""Deal reviews kept in the history database (migration 0003): once per stored deal and
reviewer; only played stored deals are reviewable."""

from __future__ import annotations

import pytest
from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from server.history import (
    NotReviewable,
    reviewable_record,
    store_deal,
    store_review,
    stored_review,
)
from server.history.reviews import REVIEWER_MAX, deal_reviews
from server.history.schema import deals

from .golden import NAMES, finished_deals, record

PLAYED = NAMES.index("garde_failed")
CANCELLED = NAMES.index("cancelled_all_pass")


async def _stored(engine: AsyncEngine) -> None:
    for deal in finished_deals():
        await store_deal(engine, deal)


async def test_a_review_is_kept_once_per_deal_and_reviewer(engine: AsyncEngine) -> None:
    await _stored(engine)
    assert await stored_review(engine, "t-golden", PLAYED, "r1") is None
    assert await store_review(engine, "t-golden", PLAYED, "r1", {"decisions": [1]})
    # A second node's analysis of the same deal, by the same reviewer: the first stays.
    assert not await store_review(engine, "t-golden", PLAYED, "r1", {"decisions": [2]})
    assert await stored_review(engine, "t-golden", PLAYED, "r1") == {"decisions": [1]}
    # Another reviewer (version, budget) has its own review of the deal.
    assert await stored_review(engine, "t-golden", PLAYED, "r2") is None
    assert await store_review(engine, "t-golden", PLAYED, "r2", {"decisions": [3]})
    assert await stored_review(engine, "t-golden", PLAYED, "r2") == {"decisions": [3]}
    async with engine.connect() as conn:
        count = select(func.count()).select_from(deal_reviews)
        assert (await conn.execute(count)).scalar_one() == 2


async def test_a_review_of_a_deal_not_stored_is_refused_and_changes_nothing(
    engine: AsyncEngine,
) -> None:
    await _stored(engine)
    for table_id, number in (("t-golden", len(NAMES)), ("t-other", PLAYED)):
        with pytest.raises(NotReviewable, match=f"no stored deal {number} of table '{table_id}'"):
            await store_review(engine, table_id, number, "r1", {})
    with pytest.raises(ValueError, match="at most 64 characters"):
        await store_review(engine, "t-golden", PLAYED, "r" * (REVIEWER_MAX + 1), {})
    async with engine.connect() as conn:
        count = select(func.count()).select_from(deal_reviews)
        assert (await conn.execute(count)).scalar_one() == 0


async def test_a_deal_s_reviews_go_with_it(engine: AsyncEngine) -> None:
    await _stored(engine)
    await store_review(engine, "t-golden", PLAYED, "r1", {})
    async with engine.begin() as conn:
        await conn.execute(delete(deals).where(deals.c.deal_number == PLAYED))
    assert await stored_review(engine, "t-golden", PLAYED, "r1") is None


async def test_only_a_played_stored_deal_is_reviewable(engine: AsyncEngine) -> None:
    await _stored(engine)
    assert await reviewable_record(engine, "t-golden", PLAYED) == record("garde_failed")
    with pytest.raises(NotReviewable, match="was cancelled: nothing to review"):
        await reviewable_record(engine, "t-golden", CANCELLED)
    with pytest.raises(NotReviewable, match="no stored deal 99 of table 't-golden'"):
        await reviewable_record(engine, "t-golden", 99)
