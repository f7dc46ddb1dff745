"""``tarot schema``: the JSON Schema of every protocol message, generated from the models."""

from __future__ import annotations

import argparse
import json
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("schema", help="print the protocol's JSON Schema")
    p.set_defaults(run=run)


def protocol_schema() -> dict[str, Any]:
    from protocol.models import CLIENT_MESSAGES, PROTOCOL_VERSION, SERVER_MESSAGES

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"tarot.v{PROTOCOL_VERSION}",
        "client_messages": CLIENT_MESSAGES.json_schema(),
        "server_messages": SERVER_MESSAGES.json_schema(),
    }


def run(args: argparse.Namespace) -> int:
    print(json.dumps(protocol_schema(), indent=2))
    return 0
