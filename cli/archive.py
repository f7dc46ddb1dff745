"""``tarot archive export|import``: the history database's deals as JSON Lines of records.

``export`` prints one ``tarot-record/1`` per line, oldest first (each re-scores
with ``tarot score`` to the sheet stored beside it); ``import`` loads record
files (one record, or JSON Lines such as ``export`` prints). An imported
record is stored under a table id made from its digest, unless a deal with the
same record is stored already (under any id: an export imported back into its own
database stores nothing), so importing a file twice stores its deals once. Every
record is replayed by the engine first: a bad one is named (file, line) and nothing
is stored.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import UTC, datetime
from typing import Any

from cli.argtypes import moment
from engine import RecordError, parse_record


def add_parser(sub: Any) -> None:
    p = sub.add_parser("archive", help="export or import the history database's deals")
    actions = p.add_subparsers(dest="action", required=True)
    export = actions.add_parser("export", help="print stored deals' records as JSON Lines")
    export.add_argument("--db", help="database URL (TAROT_DB_URL; default: a SQLite file)")
    export.add_argument("--player", help="only deals this player sat in (account or guest name)")
    export.add_argument("--since", type=moment, help="only deals finished then or later (ISO date)")
    export.set_defaults(run=run_export)
    load = actions.add_parser("import", help="store tarot-record/1 files (JSON or JSON Lines)")
    load.add_argument("--db", help="database URL (TAROT_DB_URL; default: a SQLite file)")
    load.add_argument("files", nargs="+", metavar="FILE")
    load.set_defaults(run=run_import)


def run_export(args: argparse.Namespace) -> int:
    from server.history import HistoryError

    try:
        asyncio.run(_export(args.db, args.player, args.since))
    except HistoryError as e:
        print(f"tarot archive: {e}", file=sys.stderr)
        return 1
    return 0


async def _export(db: str | None, player: str | None, since: datetime | None) -> None:
    from server.history import default_url, migrate, open_engine, stored_deals

    engine = open_engine(db or default_url())
    try:
        await migrate(engine)
        async for deal in stored_deals(engine, player=player, since=since):
            sys.stdout.write(json.dumps(deal.record, separators=(",", ":")) + "\n")
        if player is None and since is None:  # the closed duplicate events, after the deals
            from server.history.duplicate_export import exported_events

            async for event in exported_events(engine):
                sys.stdout.write(json.dumps(event, separators=(",", ":")) + "\n")
    finally:
        await engine.dispose()


def records_of(name: str) -> list[tuple[str, Any]]:
    """``(where, record)`` for each record of a file: one JSON document, or JSON Lines."""
    try:
        with open(name, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {name}: {getattr(e, 'strerror', None) or e}") from e
    try:
        document = json.loads(text)
        return [] if _is_event(document) else [(name, document)]
    except ValueError:
        pass  # not one document: JSON Lines
    lines = [
        (f"{name}:{n}", line)
        for n, line in enumerate(text.splitlines(), 1)
        if line.strip() and not _is_event(_json_or_none(line))  # an export's events
    ]
    return [(where, parse_record(line)) for where, line in lines]


def _json_or_none(line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None  # parse_record says what is wrong with it


def _is_event(document: Any) -> bool:
    """A duplicate event of an export (``duplicate_export``): not a record, not imported."""
    return isinstance(document, dict) and set(document) == {"duplicate_event"}


def run_import(args: argparse.Namespace) -> int:
    from server.history import HistoryError

    try:
        stored, seen = asyncio.run(_import(args.db, args.files))
    except (HistoryError, RecordError) as e:
        print(f"tarot archive: {e}", file=sys.stderr)
        return 1
    print(f"{stored} deals stored, {seen - stored} already there", file=sys.stderr)
    return 0


async def _import(db: str | None, files: list[str]) -> tuple[int, int]:
    from server.history import (
        BadRecord,
        FinishedDeal,
        default_url,
        imported_key,
        migrate,
        open_engine,
        sheet_of,
        store_deal,
        stored_deals,
    )

    batches = []
    for name in files:  # every file is read and checked before anything is stored
        batch = []
        for where, record in records_of(name):
            try:
                batch.append((record, sheet_of(record)))
            except BadRecord as e:
                raise BadRecord(f"{where}: {e}") from e
        batches.append(batch)
    engine = open_engine(db or default_url())
    now = datetime.now(UTC)
    stored = seen = 0
    try:
        await migrate(engine)
        # The deals there already, by content: an exported deal is stored under its table's
        # id, not under its digest (before, 208 of 220 were stored again). One read of the
        # deals table per import.
        known = {imported_key(deal.record) async for deal in stored_deals(engine)}
        for batch in batches:
            for record, sheet in batch:
                key = imported_key(record)
                seen += 1
                if key in known:
                    continue
                known.add(key)
                deal = FinishedDeal(key, 0, record, sheet, now, now)
                stored += await store_deal(engine, deal)
    finally:
        await engine.dispose()
    return stored, seen
