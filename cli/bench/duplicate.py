"""``tarot bench duplicate``: the time to score a duplicate event, its rows and bytes per entry.

An event of ``--deals`` deals (20) and ``--entrants`` entrants (10,000), all in
seat 0 as in a robot event. Each entrant's score on a deal is drawn from
``--pool`` random legal plays of that very deal (the event's cards, dealt from
its seed; random bids and cards, so the field is wider than strong players'
would be, which makes more distinct scores to mark, not fewer). Then:

- ``score_s``: ``server.duplicate.score_event`` over the 200,000 results, the
  median of ``--runs`` runs (wall clock, in this process, the collector at its
  defaults);
- in the database (a SQLite file in a temporary folder, or ``--db``, an empty
  one): the entries and results written in bulk, as the real path would leave
  them; ``rows_per_entry`` and ``bytes_per_entry`` (the SQLite file after a
  checkpoint, or PostgreSQL's ``pg_database_size``, before and after, divided
  by the entrants), and the same after the close (``..._closed``: with the
  duplicate rating of each account and its change); ``close_s``, ``close_event``
  (claim, read, score, write every mark and standing, move the duplicate
  ratings: what the server does once at the close); the first
  page of standings read back; and ``record_ms_p50``, the real
  ``record_result`` path for 10 entrants' deals, one call at a time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from cli.argtypes import at_least
from engine import apply_in_place, random_action, score

SEED = bytes(range(32))
OPENS = datetime(2026, 12, 1, tzinfo=UTC)
CLOSES = OPENS + timedelta(days=1)
SAMPLE_ENTRANTS = 10  # entrants whose results go through record_result, timed
CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "duplicate", help="time to score a duplicate event; rows and bytes per entry"
    )
    p.add_argument("--entrants", type=at_least(2), default=10_000, help="entrants (10000)")
    p.add_argument("--deals", type=at_least(1), default=20, help="deals of the event (20)")
    p.add_argument("--pool", type=at_least(1), default=200, help="random plays per deal (200)")
    p.add_argument("--runs", type=at_least(1), default=3, help="scoring runs, median (3)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--db", help="an empty database (default: a SQLite file in a temp folder)")
    p.add_argument("--no-db", action="store_true", help="the scoring's time only")
    p.add_argument("--json", action="store_true", help="the figures as one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from server.duplicate import score_event

    rng = random.Random(args.seed)
    pools = _pools(args.deals, args.pool, rng)
    results = _results(args.entrants, pools, rng)
    entrants = list(range(args.entrants))
    times = []
    for _ in range(args.runs):
        began = time.perf_counter()
        score_event(results, entrants, args.deals)
        times.append(time.perf_counter() - began)
    figures: dict[str, Any] = {
        "entrants": args.entrants,
        "deals": args.deals,
        "results": len(results),
        "score_s": round(statistics.median(times), 3),
        "score_s_runs": [round(t, 3) for t in times],
    }
    if not args.no_db:
        with tempfile.TemporaryDirectory() as folder:
            url = args.db or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
            figures |= asyncio.run(_measure_database(url, results, args.entrants, args.deals))
    _print(figures, args.json)
    return 0


def _print(figures: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key:>22}: {value}")


def _pools(deals: int, pool: int, rng: random.Random) -> list[list[tuple[float, str | None]]]:
    """Per deal, ``pool`` outcomes for seat 0 of random legal plays of that deal: score and
    contract (None: passed out)."""
    from server.duplicate import event_deal

    outcomes = []
    for index in range(deals):
        dealt = event_deal(SEED, index)
        found = []
        for _ in range(pool):
            deal = dealt.state()
            while not deal.is_over:
                apply_in_place(deal, random_action(deal, rng))
            sheet = score(deal).to_json()
            found.append((sheet["scores"][0], sheet.get("contract")))
        outcomes.append(found)
    return outcomes


def _results(entrants: int, pools: list[list[tuple[float, str | None]]], rng: random.Random) -> Any:
    from server.duplicate import DealResult

    return [
        DealResult(entrant, deal, 0, rng.choice(pool)[0])
        for entrant in range(entrants)
        for deal, pool in enumerate(pools)
    ]


async def _measure_database(url: str, results: Any, entrants: int, deals: int) -> dict[str, Any]:
    from cli.bench.history import _size
    from server.history import close_event, event_standings, migrate, open_engine

    engine = open_engine(url)
    try:
        await migrate(engine)
        accounts = await _accounts(engine, entrants + SAMPLE_ENTRANTS)
        event_id = await _event(engine, deals)
        before = await _size(engine)
        entries = await _entries(engine, event_id, accounts[:entrants])
        await _bulk_results(engine, event_id, entries, results)
        rows = await _rows(engine)
        after = await _size(engine)
        began = time.perf_counter()
        scored = await close_event(engine, event_id, now=CLOSES)
        close_s = time.perf_counter() - began
        rows_closed, closed = await _rows(engine), await _size(engine)
        assert scored is not None and len(scored.standings) == entrants
        began = time.perf_counter()
        await event_standings(engine, event_id, None, now=CLOSES, limit=100)
        read_ms = (time.perf_counter() - began) * 1000
        writes = await _timed_writes(engine, deals, accounts[entrants:])
    finally:
        await engine.dispose()
    return {
        "backend": engine.dialect.name,
        "rows_per_entry": round(rows / entrants, 2),
        "bytes_per_entry": round((after - before) / entrants),
        # After the close: the marks written, the duplicate rating and its changes (0006).
        "rows_per_entry_closed": round(rows_closed / entrants, 2),
        "bytes_per_entry_closed": round((closed - before) / entrants),
        "close_s": round(close_s, 3),
        "standings_page_ms": round(read_ms, 1),
        "record_ms_p50": round(statistics.median(writes) * 1000, 2),
    }


async def _accounts(engine: Any, count: int) -> list[int]:
    """Accounts made in bulk (they exist before an event: not counted in its bytes)."""
    from sqlalchemy import insert, select

    from server.history.schema import accounts

    rows = [
        {"name": f"P{i}", "name_key": f"p{i}", "password_hash": "-", "created_at": OPENS}
        for i in range(count)
    ]
    async with engine.begin() as conn:
        await conn.execute(insert(accounts), rows)
        return list((await conn.execute(select(accounts.c.id).order_by(accounts.c.id))).scalars())


async def _event(engine: Any, deals: int) -> int:
    from server.duplicate import DuplicateEvent
    from server.history import create_event

    return await create_event(
        engine, DuplicateEvent("bench", SEED, deals, OPENS, CLOSES), now=OPENS
    )


async def _entries(engine: Any, event_id: int, accounts: list[int]) -> list[int]:
    from sqlalchemy import insert, select

    from server.history.schema import duplicate_entries as entries

    rows = [{"event_id": event_id, "account_id": a, "entered_at": OPENS} for a in accounts]
    async with engine.begin() as conn:
        await conn.execute(insert(entries), rows)
        query = select(entries.c.id).where(entries.c.event_id == event_id).order_by(entries.c.id)
        return list((await conn.execute(query)).scalars())


async def _bulk_results(engine: Any, event_id: int, entries: list[int], results: Any) -> None:
    """The rows ``record_result`` would leave: a table id of 8 characters, as tables have."""
    from sqlalchemy import insert

    from server.history.schema import duplicate_results

    rows = [
        {
            "entry_id": entries[r.entrant],
            "deal_index": r.deal,
            "event_id": event_id,
            "seat": r.seat,
            "table_id": f"t{entries[r.entrant]:07d}",
            "deal_number": r.deal,
            "contract": None if r.score == 0 else CONTRACTS[r.deal % 4],
            "score": float(r.score),
            "played_at": OPENS + timedelta(seconds=r.entrant * 30 + r.deal),
        }
        for r in results
    ]
    async with engine.begin() as conn:
        for start in range(0, len(rows), 20_000):
            await conn.execute(insert(duplicate_results), rows[start : start + 20_000])


async def _rows(engine: Any) -> int:
    from sqlalchemy import func, select

    from server.history.schema import (
        duplicate_entries,
        duplicate_rating_changes,
        duplicate_ratings,
        duplicate_results,
    )

    tables = (duplicate_entries, duplicate_results, duplicate_ratings, duplicate_rating_changes)
    async with engine.connect() as conn:
        count = 0
        for table in tables:
            count += int((await conn.execute(select(func.count()).select_from(table))).scalar_one())
        return count


async def _timed_writes(engine: Any, deals: int, accounts: list[int]) -> list[float]:
    """``record_result`` for a few entrants of a second event, each call timed."""
    from server.history import EventResult, enter_event, record_result

    event_id = await _event(engine, deals)
    during = OPENS + timedelta(hours=1)
    times = []
    for account in accounts:
        entry = await enter_event(engine, event_id, account_id=account, now=during)
        for deal in range(deals):
            result = EventResult(entry, deal, 0, 0, None, f"s{entry:07d}", deal)
            began = time.perf_counter()
            await record_result(engine, result, now=during)
            times.append(time.perf_counter() - began)
    return times
