"""Issue 27.11: a name that looks like an account's is taken. "Mаrie" with a Cyrillic а once
registered beside "Marie"; accounts are now unique by their names' skeletons too
(Unicode TS #39: ``protocol/skeletons.py``), and a name drawn as nothing is refused."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from protocol.skeletons import name_skeleton
from server.history import Accounts, BadAccountName, NameTaken, open_engine
from server.history.deals import count_rows
from server.history.schema import accounts

PASSWORD = "correct horse battery"
CYRILLIC_A, CYRILLIC_EM, UKRAINIAN_I = "\u0430", "\u041c", "\u0456"


@pytest.mark.parametrize(
    ("taken", "look_alike"),
    [
        ("Marie", f"M{CYRILLIC_A}rie"),  # the issue's
        ("Marie", f"m{CYRILLIC_A}rie"),  # in another case too
        ("Marie", f"{CYRILLIC_EM}{CYRILLIC_A}rie"),
        ("Marie", f"Mar{UKRAINIAN_I}e"),
        ("Ian", "lan"),  # a capital I for an l
        ("Amie", "Arnie"),  # rn for m
        ("Player0", "PlayerO"),
        ("paypal", "\u0440\u0430\u0443pal"),  # a whole word in Cyrillic
    ],
)
async def test_a_name_that_looks_like_an_accounts_is_taken(
    engine: AsyncEngine, taken: str, look_alike: str
) -> None:
    book = Accounts(engine)
    await book.sign_up(taken, PASSWORD)
    with pytest.raises(NameTaken, match=f"looks like '{taken}', which is taken") as refused:
        await book.sign_up(look_alike, "another password")
    assert refused.value.code == "name_taken"
    assert (await count_rows(engine, ["accounts"]))["accounts"] == 1
    await book.sign_in(taken, PASSWORD)  # the first keeps its name


async def test_names_that_look_different_are_kept_apart(engine: AsyncEngine) -> None:
    book = Accounts(engine)
    names = ["Marie", "Maria", "Zoé", "Zoe", "Mário", "王小明", "Ελένη", "Елена", "Ann", "Anne"]
    for name in names:
        await book.sign_up(name, PASSWORD)
    async with engine.connect() as conn:
        stored = dict((await conn.execute(select(accounts.c.name, accounts.c.name_skeleton))).all())
    assert stored == {name: name_skeleton(name) for name in names}


@pytest.mark.parametrize(
    "name",
    [
        "\u3164",  # HANGUL FILLER: a name that looks empty
        "Marie\u3164",  # ... or like another
        "\uffa0Bob",  # HALFWIDTH HANGUL FILLER
        "Ma\u034frie",  # COMBINING GRAPHEME JOINER
        "\u115fAnn",  # HANGUL CHOSEONG FILLER
    ],
)
async def test_a_name_with_a_letter_drawn_as_nothing_is_refused(
    engine: AsyncEngine, name: str
) -> None:
    with pytest.raises(BadAccountName, match=r"invisible or unassigned character \(U\+"):
        await Accounts(engine).sign_up(name, PASSWORD)
    assert (await count_rows(engine, ["accounts"]))["accounts"] == 0


async def test_variation_selectors_are_dropped_from_a_name(engine: AsyncEngine) -> None:
    """They only choose a glyph (an emoji's colour form): a phone adds one to a heart."""
    signed = await Accounts(engine).sign_up("Zoé \u2764\ufe0f", PASSWORD)
    assert signed.account.name == "Zoé \u2764"
    with pytest.raises(NameTaken):
        await Accounts(engine).sign_up("Zoé \u2764\ufe0e", PASSWORD)


async def test_racing_sign_ups_of_look_alikes_make_one_account(
    engine: AsyncEngine, db_url: str
) -> None:
    """Four nodes (four engines) sign up four look-alikes at once: the unique skeleton keeps
    one, the others are told the name is taken."""
    names = ("Marie", f"M{CYRILLIC_A}rie", f"{CYRILLIC_EM}arie", f"Mar{UKRAINIAN_I}e")
    engines = [open_engine(db_url) for _ in names]
    try:
        results = await asyncio.gather(
            *(Accounts(e).sign_up(n, PASSWORD) for e, n in zip(engines, names, strict=True)),
            return_exceptions=True,
        )
    finally:
        for e in engines:
            await e.dispose()
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 3 and all(isinstance(r, NameTaken) for r in refused), results
    assert (await count_rows(engine, ["accounts"]))["accounts"] == 1
