"""``tarot bench history``: what storing finished deals costs: time per write, rows, bytes.

Random legal deals (``tarot simulate``'s) are stored one after the other,
each with its four seats, as a node's writer stores them; then the figures:
the time of each write (median and p99, wall clock, each write its own
transaction), rows per deal, and the database's size per 1,000 deals (the
SQLite file after a checkpoint, or PostgreSQL's ``pg_database_size``). The
default database is a SQLite file in a temporary folder; ``--db`` another
(an empty one: its size is the figure).
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
from cli.simulate import play_random_deal
from engine import score, to_record


def add_parser(sub: Any) -> None:
    p = sub.add_parser("history", help="time and size of storing finished deals")
    p.add_argument("--db", help="an empty database (default: a SQLite file in a temp folder)")
    p.add_argument("--deals", type=at_least(1), default=1000, help="deals to store (1000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="the figures as one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as folder:
        url = args.db or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        figures = asyncio.run(measure(url, args.deals, args.seed))
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>24}: {value}")
    return 0


def _deals(count: int, seed: int) -> list[Any]:
    from server.history import FinishedDeal, Occupant

    rng = random.Random(seed)
    seats = (Occupant(guest_name="Anna"), Occupant(ai_level="expert"), Occupant(ai_level="basic"))
    start = datetime(2026, 12, 1, tzinfo=UTC)
    made = []
    for number in range(count):
        deal = play_random_deal(number % 4, rng, verbose=False)
        when = start + timedelta(minutes=number)
        made.append(
            FinishedDeal(
                "bench",
                number,
                to_record(deal),
                score(deal).to_json(),
                when,
                when,
                (*seats, Occupant(guest_name="Bob")),
            )
        )
    return made


async def measure(url: str, count: int, seed: int) -> dict[str, Any]:
    from server.history import migrate, open_engine, store_deal
    from server.history.deals import count_rows

    engine = open_engine(url)
    await migrate(engine)
    deals = _deals(count, seed)
    empty = await _size(engine)
    times = []
    for deal in deals:
        began = time.perf_counter()
        await store_deal(engine, deal)
        times.append(time.perf_counter() - began)
    rows = await count_rows(engine)
    size = await _size(engine)
    await engine.dispose()
    times.sort()
    return {
        "backend": engine.dialect.name,
        "deals": count,
        "write_ms_p50": round(statistics.median(times) * 1000, 3),
        "write_ms_p99": round(times[min(len(times) - 1, int(len(times) * 0.99))] * 1000, 3),
        "rows_per_deal": (rows["deals"] + rows["seats"]) / count,
        "bytes_per_1000_deals": round((size - empty) / count * 1000),
        "bytes_empty_schema": empty,
        "record_bytes_mean": round(statistics.mean(len(json.dumps(d.record)) for d in deals)),
    }


async def _size(engine: Any) -> int:
    from sqlalchemy import text

    async with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            query = text("SELECT pg_database_size(current_database())")
            return int((await conn.execute(query)).scalar_one())
        await conn.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
        pages = (await conn.execute(text("PRAGMA page_count"))).scalar_one()
        # Pages in use: a migration that rebuilds a table (0009) leaves free pages, which
        # the next rows take without the file growing.
        free = (await conn.execute(text("PRAGMA freelist_count"))).scalar_one()
        page = (await conn.execute(text("PRAGMA page_size"))).scalar_one()
        return (int(pages) - int(free)) * int(page)
