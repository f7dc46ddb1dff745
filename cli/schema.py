"""``tarot schema``: the JSON Schema of every protocol message, generated from the models."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("schema", help="print the protocol's JSON Schema")
    p.add_argument(
        "--web",
        metavar="DIR",
        type=Path,
        help="write the browser client's messages.d.ts and protocol.js into DIR instead",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.web is not None:
        from .schema_ts import write_web

        for path in write_web(args.web):
            print(f"wrote {path}")
        return 0
    from protocol.schema import protocol_schema

    print(json.dumps(protocol_schema(), indent=2))
    return 0
