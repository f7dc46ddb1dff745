"""Mutes kept for accounts (migration 0008, server/history/chat_safety.py), on SQLite and
PostgreSQL: by name in any case, one row per name, gone on unmute and with the account."""

from __future__ import annotations

import asyncio

import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from server.history import Accounts, accounts, block, mute, muted_names, unmute
from server.history.chat_safety import TooManyBlocks, TooManyMutes, blocks, mutes
from server.history.schema import accounts as account_rows

PASSWORD = "correct horse battery"
LIMIT = 4
RACERS = 8


async def rows(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(mutes))).scalar_one())


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


async def test_a_mute_is_kept_by_name_in_any_case_until_unmuted(engine: AsyncEngine) -> None:
    book = Accounts(engine)
    anna = (await book.sign_up("Anna", PASSWORD)).account.id
    bob = (await book.sign_up("Bob", PASSWORD)).account.id
    await mute(engine, anna, ["Chloé", "CHLOÉ", "Guest 7"])
    await mute(engine, anna, ["chloé"])  # again: one row
    assert await muted_names(engine, anna) == {"chloé", "guest 7"}
    assert await muted_names(engine, bob) == set()  # one way, one account's
    await unmute(engine, anna, "GUEST 7")
    assert await muted_names(engine, anna) == {"chloé"}
    await mute(engine, anna, [])
    assert await rows(engine) == 1


async def test_an_account_removed_takes_its_mutes_along(engine: AsyncEngine) -> None:
    anna = (await Accounts(engine).sign_up("Anna", PASSWORD)).account.id
    await mute(engine, anna, ["Bob"])
    async with engine.begin() as conn:
        await conn.execute(account_rows.delete().where(account_rows.c.id == anna))
    assert await rows(engine) == 0


async def test_concurrent_mutes_at_the_limit_never_pass_it(engine: AsyncEngine) -> None:
    # Each mute counts the account's rows then inserts: unless the account is locked first,
    # READ COMMITTED (PostgreSQL) or a read before the first write (SQLite's driver) lets
    # every racer see LIMIT - 1 rows and keep its name.
    anna = (await Accounts(engine).sign_up("Anna", PASSWORD)).account.id
    await mute(engine, anna, [f"kept {i}" for i in range(LIMIT - 1)], LIMIT)
    racing = [mute(engine, anna, [f"racer {i}"], LIMIT) for i in range(RACERS)]
    results = await asyncio.gather(*racing, return_exceptions=True)
    assert len(await muted_names(engine, anna)) == LIMIT
    refusals = [r for r in results if isinstance(r, BaseException)]
    assert len(refusals) == RACERS - 1, results
    assert all(isinstance(r, TooManyMutes) for r in refusals), results


async def test_concurrent_blocks_at_the_limit_never_pass_it(engine: AsyncEngine) -> None:
    book = Accounts(engine)
    anna = (await book.sign_up("Anna", PASSWORD)).account.id
    for i in range(LIMIT - 1 + RACERS):
        await book.sign_up(f"Other{i}", PASSWORD)
    for i in range(LIMIT - 1):
        await block(engine, anna, f"Other{i}", LIMIT)
    racing = [block(engine, anna, f"Other{LIMIT - 1 + i}", LIMIT) for i in range(RACERS)]
    results = await asyncio.gather(*racing, return_exceptions=True)
    async with engine.connect() as conn:
        query = select(func.count()).select_from(blocks).where(blocks.c.blocker_id == anna)
        assert (await conn.execute(query)).scalar_one() == LIMIT
    refusals = [r for r in results if isinstance(r, BaseException)]
    assert len(refusals) == RACERS - 1, results
    assert all(isinstance(r, TooManyBlocks) for r in refusals), results
