"""``tarot reports``: the chat messages players reported, newest first, for an operator.

Each report shows when, at which table (and event number), who reported whom
and why, the message, and the chat messages before it (its context), as the
history database keeps them (server/history/chat_safety.py). Names and texts
are printed with their control characters made visible, never raw: a report
is what a hostile player wrote. ``--json`` prints one JSON object per line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import unicodedata
from datetime import datetime
from typing import TYPE_CHECKING, Any

from cli.argtypes import moment, stored_number

if TYPE_CHECKING:
    from server.history import StoredReport


def add_parser(sub: Any) -> None:
    p = sub.add_parser("reports", help="list the chat messages players reported (newest first)")
    p.add_argument("--db", help="database URL (TAROT_DB_URL; default: a SQLite file)")
    p.add_argument("--limit", type=stored_number, default=50, help="at most this many reports (50)")
    p.add_argument("--since", type=moment, help="only reports made then or later (ISO date)")
    p.add_argument("--json", action="store_true", help="one JSON object per report and line")
    p.set_defaults(run=run)


def shown(text: object) -> str:
    """``text`` safe for a terminal: control, format and separator characters as ``\\uXXXX``.

    >>> shown("evil\\x1b]52;c;x\\x07")
    'evil\\\\u001b]52;c;x\\\\u0007'
    """
    return "".join(
        f"\\u{ord(c):04x}" if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c
        for c in str(text)
    )


def said(event: dict[str, Any]) -> str:
    """One chat message as a line: ``[seq] name: text`` (a preset as ``:code:``)."""
    words = f":{event['preset']}:" if event.get("preset") else event.get("text", "")
    who = event.get("name") or "?"
    where = "" if event.get("seat") is not None else " (spectator)"
    seq = f"[{event['seq']}] " if "seq" in event else ""
    return f"{seq}{shown(who)}{where}: {shown(words)}"


def lines_of(stored: StoredReport) -> list[str]:
    report = stored.report
    head = (
        f"#{stored.id} {stored.reported_at:%Y-%m-%d %H:%M:%S} table {report.table_id}"
        f" event {report.seq}: {shown(report.reporter)} reported {shown(report.author)}"
    )
    reason = f"  reason: {shown(report.reason)}" if report.reason else "  reason: (none)"
    context = [f"    {said(e)}" for e in report.context]
    return [head, reason, *context, f"  > {said({'seq': report.seq, **report.message})}", ""]


def as_json(stored: StoredReport) -> str:
    return json.dumps(stored.as_dict(), ensure_ascii=True)


def run(args: argparse.Namespace) -> int:
    from server.history import HistoryError

    try:
        reports = asyncio.run(_read(args.db, args.limit, args.since))
    except HistoryError as e:
        print(f"tarot reports: {e}", file=sys.stderr)
        return 1
    for stored in reports:
        if args.json:
            print(as_json(stored))
        else:
            print("\n".join(lines_of(stored)))
    if not reports and not args.json:
        print("no reports")
    return 0


async def _read(db: str | None, limit: int, since: datetime | None) -> list[StoredReport]:
    from server.history import default_url, migrate, open_engine, stored_reports

    engine = open_engine(db or default_url())
    try:
        await migrate(engine)
        return await stored_reports(engine, limit=limit, since=since)
    finally:
        await engine.dispose()
