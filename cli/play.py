"""``tarot play``: play at a table in the terminal, against AI or other people.

    tarot play                          # a local server, one deal against 3 AI
    tarot play --deals 4 --ai strong    # a series of 4 deals against the search AI
    tarot play --server ws://host:8765/ --table AbC123
    tarot play --server ws://host:8765/ --watch AbC123   # as a spectator
    TAROT_PASSWORD=... tarot play --server ws://host:8765/ --queue rated --account Zoe

Without ``--server`` a server runs inside this process on a free port
(``play_server``): the terminal client is handed a way to start it, and
imports nothing of the server itself.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .argtypes import (
    QUEUE_DEALS_MAX,
    RATED_NEEDS_ACCOUNT,
    account_of,
    player_name,
    seconds,
    table_deals,
    table_id,
    websocket_url,
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser("play", help="play in the terminal (a local server unless --server)")
    p.add_argument(
        "--server",
        type=websocket_url,
        help="WebSocket URL of a server (default: start a local one)",
    )
    p.add_argument("--table", type=table_id, help="join this table instead of creating one")
    p.add_argument(
        "--watch", type=table_id, metavar="TABLE", help="follow this table as a spectator"
    )
    p.add_argument("--seat", type=int, choices=range(4), help="the seat (default: a free one)")
    p.add_argument("--name", type=player_name, default="", help="your name at the table")
    p.add_argument(
        "--deals",
        type=table_deals,
        default=1,
        help=f"deals of a new table (default 1; at most {QUEUE_DEALS_MAX} with --queue)",
    )
    p.add_argument(
        "--ai",
        default="expert",
        choices=["random", "basic", "expert", "strong"],
        help="the AI level of a new table (default expert)",
    )
    p.add_argument(
        "--ai-pause",
        type=seconds,
        default=0.5,
        help="seconds before each AI move on the local server (default 0.5)",
    )
    p.add_argument(
        "--queue",
        choices=["casual", "rated"],
        help="quick play: be seated with other players by rating (AI after a wait)",
    )
    p.add_argument(
        "--account",
        type=player_name,
        help="sign in as this account (its password from TAROT_PASSWORD, else asked)",
    )
    p.add_argument("--json", action="store_true", help="speak JSON instead of msgpack")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from clients.terminal import TableApp

    from .play_server import play_server

    if args.watch and (not args.server or args.table):
        print("tarot play: --watch needs --server, and no --table", file=sys.stderr)
        return 2
    if args.queue and args.deals > QUEUE_DEALS_MAX:
        print(f"tarot play: --queue plays at most {QUEUE_DEALS_MAX} deals", file=sys.stderr)
        return 2
    if args.queue == "rated" and args.account is None:
        print(f"tarot play: {RATED_NEEDS_ACCOUNT}", file=sys.stderr)
        return 2
    try:
        account = account_of(args.account)
    except ValueError as e:
        print(f"tarot play: {e}", file=sys.stderr)
        return 2
    app = TableApp(
        args.server,
        table_id=args.watch or args.table,
        watch=bool(args.watch),
        seat=args.seat,
        name=args.name,
        deals=args.deals,
        ai_level=args.ai,
        codec="json" if args.json else "msgpack",
        local_server=None if args.server else play_server(args.ai_pause),
        queue=args.queue,
        account=account,
    )
    totals = app.run()
    if totals is not None:
        print(json.dumps({"totals": totals}))
    return 0
