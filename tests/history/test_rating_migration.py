"""The ratings' migration (0002) on top of history's first one: an empty database goes
through every revision in turn, and deals stored before ratings existed get rated after."""

from __future__ import annotations

import dataclasses

from alembic.script import ScriptDirectory
from sqlalchemy import insert, inspect
from sqlalchemy.ext.asyncio import AsyncEngine

from server.history import Occupant, display_name, migrate, open_engine, store_deal
from server.history.database import alembic_config, current_revision
from server.history.ratings import rate_pending, rating_of
from server.history.schema import accounts

from .golden import START, finished_deals

RATING_TABLES = {"ratings", "rated_deals", "rating_changes"}


async def account_of_0001(engine: AsyncEngine, name: str) -> int:
    """An account as the code of revision 0001 signed one up (its columns only)."""
    shown, key = display_name(name)
    row = {"name": shown, "name_key": key, "password_hash": "$argon2id$", "created_at": START}
    async with engine.begin() as conn:
        inserted = (await conn.execute(insert(accounts).values(row))).inserted_primary_key
    assert inserted is not None
    return int(inserted[0])


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
        ids = [await account_of_0001(engine, n) for n in "ABCD"]
        for deal in finished_deals("old"):
            seats = tuple(Occupant(account_id=i) for i in ids)
            await store_deal(engine, dataclasses.replace(deal, seats=seats))
        await migrate(engine)
        assert await rate_pending(engine) == len(finished_deals())
        assert all([(await rating_of(engine, i)).deals > 0 for i in ids])
    finally:
        await engine.dispose()
