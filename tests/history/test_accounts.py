"""Accounts: sign up, in, out, change password; bad passwords, duplicate and hostile names."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from server.history import (
    Accounts,
    BadAccountName,
    BadPassword,
    BadSession,
    NameTaken,
    WrongCredentials,
)
from server.history.accounts import SESSION_DAYS, token_hash
from server.history.deals import count_rows
from server.history.schema import accounts, sessions

PASSWORD = "correct horse battery"


async def test_sign_up_then_in_then_out(engine: AsyncEngine) -> None:
    book = Accounts(engine)
    signed = await book.sign_up("  Ｊｅａｎ  Dupont ", PASSWORD)
    assert signed.account.name == "Jean Dupont"
    assert await book.account_of(signed.token) == signed.account
    again = await book.sign_in("JEAN DUPONT", PASSWORD)  # the name's key is case-folded
    assert again.account == signed.account and again.token != signed.token
    await book.sign_out(signed.token)
    with pytest.raises(BadSession):
        await book.account_of(signed.token)
    with pytest.raises(BadSession):
        await book.sign_out(signed.token)
    assert await book.account_of(again.token) == signed.account  # the other session lives


async def test_passwords_and_tokens_are_stored_hashed(engine: AsyncEngine) -> None:
    signed = await Accounts(engine).sign_up("anna", PASSWORD)
    async with engine.connect() as conn:
        stored = (await conn.execute(select(accounts.c.password_hash))).scalar_one()
        kept = (await conn.execute(select(sessions.c.token_hash))).scalar_one()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert kept == token_hash(signed.token) and signed.token not in kept


@pytest.mark.parametrize("name", ["anna", "ANNA", " Anna ", "Ａｎｎａ"])
async def test_a_name_is_taken_whatever_its_case_or_width(engine: AsyncEngine, name: str) -> None:
    book = Accounts(engine)
    await book.sign_up("Anna", PASSWORD)
    with pytest.raises(NameTaken, match="is taken"):
        await book.sign_up(name, "another password")
    assert (await count_rows(engine, ["accounts"]))["accounts"] == 1


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("evil\x1b]52;c;aGk=\x07", "control character"),
        ("ad\u202emin", "invisible"),
        ("a\u200bb", "invisible"),
        ("x" * 41, "at most 40"),
        ("   ", "empty"),
        ("e" + "\u0301" * 8, "marks"),
    ],
)
async def test_hostile_names_are_refused(engine: AsyncEngine, name: str, why: str) -> None:
    with pytest.raises(BadAccountName, match=why) as caught:
        await Accounts(engine).sign_up(name, PASSWORD)
    assert caught.value.code == "bad_name"
    assert (await count_rows(engine, ["accounts"]))["accounts"] == 0


@pytest.mark.parametrize(
    ("password", "why"),
    [("short", "at least 8"), ("p" * 129, "at most 128"), ("pass\x00word", "control")],
)
async def test_bad_passwords_are_refused(engine: AsyncEngine, password: str, why: str) -> None:
    with pytest.raises(BadPassword, match=why):
        await Accounts(engine).sign_up("anna", password)
    assert (await count_rows(engine, ["accounts"]))["accounts"] == 0


async def test_a_wrong_password_or_name_does_not_sign_in(engine: AsyncEngine) -> None:
    book = Accounts(engine)
    await book.sign_up("anna", PASSWORD)
    for name, password in (("anna", "wrong password"), ("nobody", PASSWORD), ("\x1b", PASSWORD)):
        with pytest.raises(WrongCredentials, match="wrong name or password"):
            await book.sign_in(name, password)


async def test_changing_the_password_revokes_the_other_sessions(engine: AsyncEngine) -> None:
    book = Accounts(engine)
    here = await book.sign_up("anna", PASSWORD)
    there = await book.sign_in("anna", PASSWORD)
    with pytest.raises(WrongCredentials):
        await book.change_password(here.token, "not my password", "a new password")
    with pytest.raises(BadPassword):
        await book.change_password(here.token, PASSWORD, "short")
    await book.change_password(here.token, PASSWORD, "a new password")
    assert (await book.account_of(here.token)).name == "anna"
    with pytest.raises(BadSession):
        await book.account_of(there.token)
    with pytest.raises(WrongCredentials):
        await book.sign_in("anna", PASSWORD)
    await book.sign_in("anna", "a new password")


async def test_a_session_expires(engine: AsyncEngine) -> None:
    now = [datetime(2026, 12, 1, tzinfo=UTC)]
    book = Accounts(engine, clock=lambda: now[0])
    signed = await book.sign_up("anna", PASSWORD)
    now[0] += timedelta(days=SESSION_DAYS) - timedelta(seconds=1)
    assert (await book.account_of(signed.token)).name == "anna"
    now[0] += timedelta(seconds=1)
    with pytest.raises(BadSession, match="expired"):
        await book.account_of(signed.token)


async def test_an_unknown_token_is_a_bad_session(engine: AsyncEngine) -> None:
    with pytest.raises(BadSession):
        await Accounts(engine).account_of("not a token \x00\udcff")


async def test_racing_sign_ups_of_one_name_make_one_account(
    engine: AsyncEngine, db_url: str
) -> None:
    """Four clients (each its own engine, as on four nodes) sign up "Anna" at once."""
    from server.history import open_engine

    engines = [open_engine(db_url) for _ in range(4)]
    try:
        results = await asyncio.gather(
            *(Accounts(e).sign_up(name, PASSWORD) for e, name in zip(engines, NAMES, strict=True)),
            return_exceptions=True,
        )
    finally:
        for e in engines:
            await e.dispose()
    made = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(made) == 1 and all(isinstance(r, NameTaken) for r in refused), results
    assert (await count_rows(engine, ["accounts"]))["accounts"] == 1


NAMES = ("Anna", "anna", "ANNA", "Ａｎｎａ")
