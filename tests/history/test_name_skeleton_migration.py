"""Migration 0005 gives existing accounts their names' skeletons (issue 27.11). Two accounts
that already looked alike both keep their names: the older gets the skeleton, the younger
none (NULL), and the unique index is built; every new look-alike is refused after it."""

from __future__ import annotations

import pytest
from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from protocol.skeletons import name_skeleton
from server.history import Accounts, NameTaken, display_name, migrate, open_engine
from server.history.database import current_revision
from server.history.schema import accounts

from .golden import START

PASSWORD = "correct horse battery"
OLD_NAMES = ["Marie", "Bob", "M\u0430rie", "BOB", "ｚｏｅ"]  # "BOB" could not be: case-folded


async def account_of_0004(engine: AsyncEngine, name: str) -> None:
    """An account as the code before 0005 signed one up (no skeleton column yet)."""
    shown, key = display_name(name)
    row = {"name": shown, "name_key": key, "password_hash": "$argon2id$", "created_at": START}
    async with engine.begin() as conn:
        await conn.execute(insert(accounts).values(row))


async def test_existing_accounts_get_skeletons_and_look_alikes_keep_their_names(
    db_url: str,
) -> None:
    engine = open_engine(db_url)
    try:
        await migrate(engine, "0004")
        for name in OLD_NAMES:
            if name != "BOB":
                await account_of_0004(engine, name)
        await migrate(engine, "0005")
        assert await current_revision(engine) == "0005"
        async with engine.connect() as conn:
            query = select(accounts.c.name, accounts.c.name_skeleton).order_by(accounts.c.id)
            stored = (await conn.execute(query)).all()
        assert stored == [
            ("Marie", name_skeleton("Marie")),
            ("Bob", name_skeleton("Bob")),
            ("M\u0430rie", None),  # looked like Marie, who came first
            ("zoe", name_skeleton("zoe")),
        ]
        book = Accounts(engine)
        with pytest.raises(NameTaken, match="looks like 'Marie'"):
            await book.sign_up("Mar\u0456e", PASSWORD)
        await book.sign_up("Zoë", PASSWORD)  # another name: it looks different
    finally:
        await engine.dispose()


async def test_the_skeletons_migration_goes_down_and_up_again(db_url: str) -> None:
    engine = open_engine(db_url)
    try:
        await migrate(engine)
        await Accounts(engine).sign_up("Marie", PASSWORD)
        await migrate_down(engine, "0004")
        assert await current_revision(engine) == "0004"
        await migrate(engine)
        with pytest.raises(NameTaken, match="looks like 'Marie'"):
            await Accounts(engine).sign_up("M\u0430rie", PASSWORD)
    finally:
        await engine.dispose()


async def migrate_down(engine: AsyncEngine, revision: str) -> None:
    from alembic import command

    from server.history.database import alembic_config

    async with engine.begin() as connection:
        await connection.run_sync(lambda sync: command.downgrade(alembic_config(sync), revision))
