"""Accounts, events and the worked example (tests/duplicate) for the duplicate history tests."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncEngine

from server.duplicate import DuplicateEvent, EventKind, ScoringKind
from server.history import EventResult, create_event, enter_event, record_result
from server.history.schema import accounts
from tests.duplicate.worked_example import SCORES

OPENS = datetime(2026, 12, 1, 8, tzinfo=UTC)
CLOSES = OPENS + timedelta(hours=10)
DURING = OPENS + timedelta(hours=1)
AFTER = CLOSES + timedelta(minutes=1)
CONTRACTS = {150: "garde", -50: "prise", 0: None, -105: "garde", -70: "prise", -35: "prise"}
CONTRACTS |= {210: "garde"}


async def make_accounts(engine: AsyncEngine, names: Sequence[str]) -> dict[str, int]:
    """Accounts made directly (no password hashing: none of these tests signs in)."""
    ids = {}
    async with engine.begin() as conn:
        for name in names:
            row = {
                "name": name,
                "name_key": name.casefold(),
                "password_hash": "-",
                "created_at": OPENS,
            }
            made = await conn.execute(insert(accounts).values(row).returning(accounts.c.id))
            ids[name] = int(made.scalar_one())
    return ids


async def make_event(
    engine: AsyncEngine,
    deals: int = 3,
    kind: EventKind = "robot",
    scoring: ScoringKind = "matchpoints",
) -> int:
    event = DuplicateEvent("Daily", bytes(range(16)), deals, OPENS, CLOSES, kind, scoring)
    return await create_event(engine, event, now=OPENS - timedelta(days=1))


async def play_worked_example(
    engine: AsyncEngine, event_id: int
) -> tuple[dict[str, int], dict[str, int]]:
    """The worked example's entrants enter and play in seat 0, in the order of the table
    (deal by deal: Ann, then Bob, Cleo, Dan), a minute apart; (accounts, entries)."""
    names = ["Ann", "Bob", "Cleo", "Dan"]
    ids = await make_accounts(engine, names)
    entries = {
        name: await enter_event(engine, event_id, account_id=ids[name], now=DURING)
        for name in names
    }
    minute = 0
    for deal, scores in SCORES.items():
        for name, score in scores.items():
            minute += 1
            result = EventResult(entries[name], deal, 0, score, CONTRACTS[score], f"t-{name}", deal)
            assert await record_result(engine, result, now=DURING + timedelta(minutes=minute))
    return ids, entries
