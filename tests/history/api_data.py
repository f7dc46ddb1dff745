"""The history docs/API.md's examples are read from: four accounts, their rated deals.

The same every run (names, times, deals from the golden records, a fixed rating
clock), so the examples in docs/API.md are exactly what the API answers.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cache, partial

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncEngine

from protocol.skeletons import name_skeleton
from server.history import (
    FinishedDeal,
    FinishedTable,
    Occupant,
    display_name,
    sheet_of,
    store_deal,
    store_table,
)
from server.history.accounts import _hasher
from server.history.ratings import rate_deal
from server.history.schema import accounts

from .golden import START, record

NAMES = ("Anna", "Bob", "Chloé", "David")
PASSWORD = "correct horse battery"
# Table "t-four": the four accounts, finished; table "t-ai": Anna with three expert AI (unrated),
# still being played.
FOUR = ("prise_made", "garde_failed", "cancelled_all_pass", "poignee_taker_made")
WITH_AI = ("garde_sans_made",)


async def fill(engine: AsyncEngine) -> list[int]:
    """The accounts' ids (1 to 4 in a fresh database); their deals stored and rated."""
    ids = [await _account(engine, name) for name in NAMES]
    four = tuple(Occupant(account_id=i) for i in ids)
    with_ai = (Occupant(account_id=ids[0]),) + (Occupant(ai_level="expert"),) * 3
    minute = 0
    for table_id, names, seats in (("t-four", FOUR, four), ("t-ai", WITH_AI, with_ai)):
        for number, name in enumerate(names):
            minute += 1
            started = START + timedelta(minutes=minute)
            finished = started + timedelta(seconds=50)
            deal = FinishedDeal(
                table_id=table_id,
                deal_number=number,
                record=record(name),
                sheet=sheet_of(record(name)),
                started_at=started,
                finished_at=finished,
                seats=seats,
            )
            await store_deal(engine, deal)
            await rate_deal(engine, table_id, number, clock=partial(_at, finished))
    await store_table(engine, _finished_four())
    return ids


def _finished_four() -> FinishedTable:
    """Table t-four as a node stores it when its last deal ends (the played deals' scores
    summed)."""
    series = [sheet_of(record(name)) for name in FOUR]
    played = [sheet for sheet in series if sheet["status"] == "played"]
    totals = [float(sum(sheet["scores"][seat] for sheet in played)) for seat in range(4)]
    return FinishedTable(
        table_id="t-four",
        deals_played=len(played),
        series=played,
        totals=totals,
        started_at=START + timedelta(minutes=1),
        finished_at=START + timedelta(minutes=len(FOUR), seconds=50),
    )


@cache
def _password_hash() -> str:
    return _hasher.hash(PASSWORD)  # once: each sign-up would hash again (argon2 is slow)


async def _account(engine: AsyncEngine, name: str) -> int:
    """An account as ``Accounts.sign_up`` makes it, without a session."""
    shown, key = display_name(name)
    row = {"name": shown, "name_key": key, "password_hash": _password_hash(), "created_at": START}
    row["name_skeleton"] = name_skeleton(shown)
    async with engine.begin() as conn:
        inserted = (await conn.execute(insert(accounts).values(row))).inserted_primary_key
    assert inserted is not None
    return int(inserted[0])


def _at(moment: datetime) -> datetime:
    return moment  # the rating clock: a deal is rated when it finished
