"""``tarot duplicate``: an operator's duplicate events (docs/DUPLICATE.md, "Operating").

``create`` makes an event (its seed drawn here, 32 secret bytes, never printed),
``list`` shows the events of the last days, ``close`` ends an open event now and
scores it (a closed one is scored by the nodes' round within a minute anyway).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

from cli.argtypes import moment, stored_number


def add_parser(sub: Any) -> None:
    p = sub.add_parser("duplicate", help="make, list and close duplicate events")
    actions = p.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create", help="make a duplicate event; prints its id")
    create.add_argument("--db", help="database URL (TAROT_DB_URL; default: a SQLite file)")
    create.add_argument("--name", required=True, help="its name (1-60 characters)")
    create.add_argument("--deals", type=int, default=20, help="how many deals, 1-64 (20)")
    create.add_argument("--opens", type=moment, help="ISO time it opens (default: now)")
    create.add_argument("--closes", type=moment, help="ISO time it closes (default: in 24 h)")
    create.add_argument("--kind", choices=["robot", "tables"], default="robot")
    create.add_argument("--scoring", choices=["matchpoints", "datum"], default="matchpoints")
    create.set_defaults(run=run_create)
    listed = actions.add_parser("list", help="the events open, to come, or closed lately")
    listed.add_argument("--db", help="database URL (TAROT_DB_URL; default: a SQLite file)")
    listed.set_defaults(run=run_list)
    close = actions.add_parser("close", help="end an open event now and score it")
    close.add_argument("--db", help="database URL (TAROT_DB_URL; default: a SQLite file)")
    close.add_argument("event_id", type=stored_number)
    close.set_defaults(run=run_close)


def _run(work: Any) -> int:
    from server.duplicate import DuplicateError
    from server.history import HistoryError

    try:
        asyncio.run(work)
    except (HistoryError, DuplicateError) as e:
        print(f"tarot duplicate: {e.message}", file=sys.stderr)
        return 1
    return 0


def run_create(args: argparse.Namespace) -> int:
    return _run(_create(args))


def run_list(args: argparse.Namespace) -> int:
    return _run(_list(args.db))


def run_close(args: argparse.Namespace) -> int:
    return _run(_close(args.db, args.event_id))


async def _opened(db: str | None) -> Any:
    from server.history import default_url, migrate, open_engine

    engine = open_engine(db or default_url())
    await migrate(engine)
    return engine


async def _create(args: argparse.Namespace) -> None:
    from server.duplicate import DuplicateEvent
    from server.history import create_event

    opens = args.opens or datetime.now(UTC)
    closes = args.closes or opens + timedelta(days=1)
    seed = secrets.token_bytes(32)
    event = DuplicateEvent(args.name, seed, args.deals, opens, closes, args.kind, args.scoring)
    engine = await _opened(args.db)
    try:
        event_id = await create_event(engine, event)
    finally:
        await engine.dispose()
    print(event_id)


async def _list(db: str | None) -> None:
    from server.history.duplicate_listing import listed_events

    engine = await _opened(db)
    try:
        for listed in await listed_events(engine, None):
            event, stored = listed.stored.event, listed.stored
            state = "scored" if stored.scored_at else ""
            print(
                f"{stored.id}\t{event.name}\t{event.kind}\t{event.deals} deals\t"
                f"{event.opens.isoformat()}\t{event.closes.isoformat()}\t{state}".rstrip()
            )
    finally:
        await engine.dispose()


async def _close(db: str | None, event_id: int) -> None:
    from server.history import end_event

    engine = await _opened(db)
    try:
        scores = await end_event(engine, event_id)
    finally:
        await engine.dispose()
    done = "scored already" if scores is None else f"scored: {len(scores.standings)} entries"
    print(f"event {event_id} {done}")
