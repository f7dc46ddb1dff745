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
        help="write the browser client's protocol.d.ts and protocol.js into DIR instead",
    )
    p.set_defaults(run=run)


def protocol_schema() -> dict[str, Any]:
    from protocol.models import CLIENT_MESSAGES, PROTOCOL_VERSION, SERVER_MESSAGES

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"tarot.v{PROTOCOL_VERSION}",
        "client_messages": _tags_required(CLIENT_MESSAGES.json_schema()),
        "server_messages": _tags_required(SERVER_MESSAGES.json_schema()),
    }


def _tags_required(schema: dict[str, Any]) -> dict[str, Any]:
    """The ``type`` and ``kind`` tags have defaults in Python, but every frame carries them."""
    for definition in schema.get("$defs", {}).values():
        properties = definition.get("properties", {})
        for tag in ("type", "kind"):
            if tag in properties and tag not in definition.setdefault("required", []):
                definition["required"].insert(0, tag)
    return schema


def run(args: argparse.Namespace) -> int:
    if args.web is not None:
        from .schema_ts import write_web

        for path in write_web(args.web):
            print(f"wrote {path}")
        return 0
    print(json.dumps(protocol_schema(), indent=2))
    return 0
