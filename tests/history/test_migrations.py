"""The schema is Alembic's to create and change: an empty database upgrades to head."""

from __future__ import annotations

from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from server.history import migrate, open_engine
from server.history.database import alembic_config, current_revision
from server.history.schema import metadata

TABLES = {"accounts", "sessions", "tables", "deals", "seats"}
TABLES |= {"ratings", "rated_deals", "rating_changes"}  # 0002, the ratings
TABLES |= {"deal_reviews"}  # 0003, the reviews
TABLES |= {"duplicate_events", "duplicate_entries", "duplicate_results"}  # 0004, duplicate
TABLES |= {"duplicate_ratings", "duplicate_rating_changes"}  # 0006, the duplicate rating
TABLES |= {"blocks", "chat_reports"}  # 0007, chat safety
TABLES |= {"mutes"}  # 0008, mutes kept for accounts


def _heads() -> set[str]:
    return set(ScriptDirectory.from_config(alembic_config()).get_heads())


def _differences(connection: Connection) -> list[Any]:
    return list(compare_metadata(MigrationContext.configure(connection), metadata))


async def test_an_empty_database_upgrades_to_head_with_every_table(db_url: str) -> None:
    engine = open_engine(db_url)
    try:
        assert await current_revision(engine) is None
        await migrate(engine)
        assert {await current_revision(engine)} == _heads()
        async with engine.connect() as conn:
            names = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
            assert names == {*TABLES, "alembic_version"}
            keys = await conn.run_sync(lambda c: inspect(c).get_pk_constraint("deals"))
            assert keys["constrained_columns"] == ["table_id", "deal_number"]
            # What the migrations built is what schema.py describes, column for column.
            assert await conn.run_sync(_differences) == []
    finally:
        await engine.dispose()


async def test_migrating_twice_changes_nothing(db_url: str) -> None:
    engine = open_engine(db_url)
    try:
        await migrate(engine)
        await migrate(engine)
        assert {await current_revision(engine)} == _heads()
    finally:
        await engine.dispose()
