"""``tarot bot``: play a seat of a table on a server with any bot, until the table is over.

    tarot bot --table AbC123 --policy clients.python.example_bot:Greedy
    tarot bot --server ws://host:8765/ --table new --deals 3 --start --policy ai:expert
    TAROT_PASSWORD=... tarot bot --table queue --mode rated --account Zoe --policy ai:expert

``--policy module:Class`` names a ``clients.python.Bot`` subclass (built with
no arguments); ``--policy ai:LEVEL`` one of our engine's AI levels
(``engine_bot.EngineBot``). Prints one
JSON line at the end: the table, the seat and the totals.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import os
import sys
from typing import TYPE_CHECKING, Any

from .argtypes import (
    QUEUE_DEALS_MAX,
    RATED_NEEDS_ACCOUNT,
    account_of,
    invite_code,
    player_name,
    table_deals,
    table_id,
    websocket_url,
)

if TYPE_CHECKING:
    from clients.python import Bot, Client, TableState
    from protocol import ServerMessage

DEFAULT_SERVER = "ws://127.0.0.1:8765/"
SEATS = 4  # a bot's own name, numbered up to this: each number refused is another seat's


def add_parser(sub: Any) -> None:
    p = sub.add_parser("bot", help="play a seat on a server with a bot (yours or ours)")
    p.add_argument(
        "--server",
        type=websocket_url,
        default=DEFAULT_SERVER,
        help=f"WebSocket URL ({DEFAULT_SERVER})",
    )
    p.add_argument(
        "--table",
        type=table_id,
        required=True,
        help="the table's id, 'new' to create one, or 'queue' for quick play (a table of"
        " strangers by rating, AI after a wait)",
    )
    p.add_argument(
        "--mode",
        choices=["casual", "rated"],
        default="casual",
        help="with --table queue: casual (default) or rated (needs --account)",
    )
    p.add_argument(
        "--account",
        type=player_name,
        help="sign in as this account (its password from TAROT_PASSWORD, else asked)",
    )
    p.add_argument("--seat", type=int, choices=range(4), help="the seat (default: any free one)")
    p.add_argument(
        "--policy", required=True, help="module:Class (a clients.python.Bot) or ai:LEVEL"
    )
    p.add_argument(
        "--name",
        type=player_name,
        default="",
        help="the name shown at the table (default: the bot's, numbered if taken there)",
    )
    p.add_argument("--invite", type=invite_code, help="the invite code of a private table")
    p.add_argument("--start", action="store_true", help="start the table (AI fills empty seats)")
    p.add_argument(
        "--deals",
        type=table_deals,
        default=1,
        help=f"deals of a new table (default 1; at most {QUEUE_DEALS_MAX} with --table queue)",
    )
    p.add_argument("--json", action="store_true", help="speak JSON instead of msgpack")
    p.set_defaults(run=run)


def load_policy(spec: str) -> Bot:
    """The bot a ``--policy`` names; ``ValueError`` with a one-line reason if it cannot."""
    from clients.python import Bot

    from .engine_bot import EngineBot

    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"policy {spec!r} is not module:Class or ai:LEVEL")
    if module_name == "ai":
        return EngineBot(attr)
    # A module of the current folder (``tarot bot --policy mybot:MyBot`` beside mybot.py):
    # the console script's sys.path starts at its own folder, not at the current one.
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise ValueError(f"cannot import {module_name!r}: {e}") from e
    cls = getattr(module, attr, None)
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise ValueError(f"{spec!r} is not a subclass of clients.python.Bot")
    return cls()


async def play(args: argparse.Namespace, bot: Bot) -> dict[str, Any]:
    from clients.python import Client, CodecName, play_table
    from protocol import models as m

    table = None if args.table == "new" else args.table  # in the URL: the table's node
    codec: CodecName = "json" if args.json else "msgpack"
    async with await Client.connect(args.server, codec, table=table) as client:
        if args.signed_in is not None:
            await client.sign_in(*args.signed_in)
        table_id = args.table
        if table_id == "queue":
            state = await client.queue(args.mode, args.deals, args.name or bot.name)
            print(f"seated by quick play at table {state.table_id}", file=sys.stderr, flush=True)
            totals = await play_table(client, bot, on_message=report)
            return {"table": state.table_id, "seat": state.seat, "totals": totals}
        if table_id == "new":
            created = await client.create_table(m.TableOptions(deals=args.deals))
            table_id = created.table.table_id
            print(f"created table {table_id}", file=sys.stderr, flush=True)
        state = await join(client, args, table_id, bot.name)
        if args.start and state.table is not None and state.table.status == "waiting":
            await client.start()
        totals = await play_table(client, bot, on_message=report)
        return {"table": table_id, "seat": state.seat, "totals": totals}


async def join(client: Client, args: argparse.Namespace, table_id: str, own: str) -> TableState:
    """Sit under ``--name``, else under the bot's own name: numbered (``ai:basic 2``) when
    the table shows it already. A table shows a name once (``bad_name``): bots of one
    level would be refused but the first."""
    from clients.python import Refused

    if args.name:
        return await client.join(table_id, args.seat, args.name, args.invite)
    for n in range(1, SEATS):
        try:
            return await client.join(
                table_id, args.seat, f"{own} {n}" if n > 1 else own, args.invite
            )
        except Refused as e:
            if e.code != "bad_name":
                raise
    return await client.join(table_id, args.seat, f"{own} {SEATS}", args.invite)


def report(message: ServerMessage) -> None:
    """Say each deal's result on standard error as it is scored."""
    from protocol import models as m

    if isinstance(message, m.Event) and isinstance(message.event, m.ScoreEvent):
        sheet = message.event.sheet
        print(f"deal {message.event.deal_number}: {sheet.model_dump_json()}", file=sys.stderr)


class PrintableFormatter(logging.Formatter):
    """Log lines quote the server's messages: printed as text (``printable``)."""

    def format(self, record: logging.LogRecord) -> str:
        from clients.python.printable import printable

        return printable(super().format(record))


def say_retries() -> None:
    """The library's retries and reconnections go to standard error, one line each."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(PrintableFormatter("tarot bot: %(message)s"))
    for name in ("tarot.client", "tarot.bot"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)


def run(args: argparse.Namespace) -> int:
    from clients.python import ClientError

    if args.table == "queue" and args.deals > QUEUE_DEALS_MAX:
        print(f"tarot bot: quick play plays at most {QUEUE_DEALS_MAX} deals", file=sys.stderr)
        return 2
    if args.table == "queue" and args.mode == "rated" and args.account is None:
        print(f"tarot bot: {RATED_NEEDS_ACCOUNT}", file=sys.stderr)
        return 2
    try:
        args.signed_in = account_of(args.account)
        bot = load_policy(args.policy)
    except ValueError as e:
        print(f"tarot bot: {e}", file=sys.stderr)
        return 2
    say_retries()
    try:
        result = asyncio.run(play(args, bot))
    except ClientError as e:  # Unreachable included: its message names the server
        from clients.python.printable import printable

        print(f"tarot bot: {printable(str(e))}", file=sys.stderr)
        return 1
    print(json.dumps(result))
    return 0
