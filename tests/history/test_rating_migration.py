"""The ratings' migration (0002) on top of history's first one: an empty database goes
through every revision in turn, and deals stored before ratings existed get rated after."""

from __future__ import annotations

import dataclasses

from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from server.history import Accounts, Occupant, migrate, open_engine, store_deal
from server.history.database import alembic_config, current_revision
from server.history.ratings import rate_pending, rating_of

from .golden import finished_deals

RATING_TABLES = {"ratings", "rated_deals", "rating_changes"}


def _revisions_oldest_first() -> list[str]:
    script = ScriptDirectory.from_config(alembic_config())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


async def _tables(engine: object) -> set[str]:
    async with engine.connect() as conn:  # type: ignore[attr-defined]
        return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))


async def test_an_empty_database_goes_through_every_revision(db_url: str) -> None:
    revisions = _revisions_oldest_first()
    assert revisions[:2] == ["0001", "0002"]
    engine = open_engine(db_url)
    try:
        for revision in revisions:
            await migrate(engine, revision)
            assert await current_revision(engine) == revision
            has_ratings = revisions.index(revision) >= revisions.index("0002")
            assert (RATING_TABLES <= await _tables(engine)) == has_ratings
    finally:
        await engine.dispose()


async def test_deals_stored_before_the_ratings_migration_are_rated_after_it(db_url: str) -> None:
    engine = open_engine(db_url)
    try:
        await migrate(engine, "0001")
        book = Accounts(engine)
        ids = [(await book.sign_up(n, "correct horse battery")).account.id for n in "ABCD"]
        for deal in finished_deals("old"):
            seats = tuple(Occupant(account_id=i) for i in ids)
            await store_deal(engine, dataclasses.replace(deal, seats=seats))
        await migrate(engine)
        assert await rate_pending(engine) == len(finished_deals())
        assert all([(await rating_of(engine, i)).deals > 0 for i in ids])
    finally:
        await engine.dispose()
