"""``tarot score FILE [FILE ...]``: the score sheet of each game record (docs/RECORD.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine import RecordError, load_record, parse_record, score


def add_parser(sub: Any) -> None:
    p = sub.add_parser("score", help="print the score sheet of game records")
    p.add_argument("files", nargs="+", metavar="FILE", help="a tarot-record/1 file, or - for stdin")
    p.set_defaults(run=run)


def sheet_of(text: str) -> dict[str, Any]:
    """The score sheet JSON of a record's text; raises ``RecordError`` (one line)."""
    return score(load_record(parse_record(text))).to_json()


def _read(name: str) -> str:
    try:
        if name == "-":
            return sys.stdin.buffer.read().decode("utf-8")
        with open(name, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {name}: {getattr(e, 'strerror', None) or e}") from e


def run(args: argparse.Namespace) -> int:
    if len(args.files) == 1:
        try:
            sheet = sheet_of(_read(args.files[0]))
        except RecordError as e:
            print(str(e), file=sys.stderr)
            return 1
        print(json.dumps(sheet))
        return 0
    status = 0
    for name in args.files:
        try:
            line = {"file": name, **sheet_of(_read(name))}
        except RecordError as e:
            line = {"file": name, "error": str(e)}
            status = 1
        print(json.dumps(line))
    return status
