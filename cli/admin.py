"""``tarot admin``: the admin API of one or more nodes (docs/DEPLOY.md, "Admin API").

    tarot admin tables --node http://10.0.0.5:9200 --node http://10.0.0.6:9200
    tarot admin tables --after CURSOR --limit 500 --node URL   # the next page
    tarot admin reports --limit 20 --node URL       # reported chat messages, newest first
    tarot admin ban --address 203.0.113.7 --minutes 60 --node URL

The token comes from ``--token`` or ``TAROT_ADMIN_TOKEN``; each action goes to every
``--node`` in turn (bans and a maintenance are kept by each node), and each node's
answer is printed as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import quote, urlencode


def add_parser(sub: Any) -> None:
    p = sub.add_parser("admin", help="the admin API of server nodes (--admin-port)")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--node",
        action="append",
        required=True,
        help="a node's admin URL, http://HOST:ADMIN_PORT (repeat for each node)",
    )
    common.add_argument("--token", help="the admin token (or TAROT_ADMIN_TOKEN)")
    acts = p.add_subparsers(dest="action", required=True)

    def action(name: str, what: str) -> argparse.ArgumentParser:
        made: argparse.ArgumentParser = acts.add_parser(name, help=what, parents=[common])
        made.set_defaults(run=run)
        return made

    tables = action("tables", "a page of the tables not finished, oldest first (never a hand)")
    tables.add_argument("--limit", type=page_size, default=100, help="tables a page (1-1000)")
    tables.add_argument("--after", help="the cursor a page's answer gave (its next)")
    action("table", "one table").add_argument("table_id")
    action("close", "close a table now").add_argument("table_id")
    for name, what in (
        ("disconnect", "close a player's or an address's connections"),
        ("ban", "ban a player or an address for a time (and disconnect it)"),
        ("unban", "lift a ban"),
    ):
        act = action(name, what)
        who = act.add_mutually_exclusive_group(required=True)
        who.add_argument("--player", help="a player's name (as seated)")
        who.add_argument("--address", help="a client address (after the trusted proxies)")
        if name == "ban":
            act.add_argument("--minutes", type=float, required=True, help="how long")
    action("bans", "the bans in force")
    reports = action("reports", "a page of the reported chat messages, newest first")
    reports.add_argument("--limit", type=page_size, default=50, help="reports a page (1-1000)")
    reports.add_argument("--before", type=int, help="the report id a page's answer gave (next)")
    announce = action("announce", "a message to every connection")
    announce.add_argument("message")
    announce.add_argument(
        "--end", action="store_true", help="the maintenance is over: tables may be created again"
    )
    action("drain", "drain the node (as SIGTERM) and stop it")


def page_size(text: str) -> int:
    """``--limit``: a whole number of tables the admin API sends in one page."""
    try:
        size = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= size <= 1000:
        raise argparse.ArgumentTypeError(f"{size} is not 1-1000")
    return size


def request_of(args: argparse.Namespace) -> tuple[str, str, dict[str, Any] | None]:
    """The method, path and JSON body of the action."""
    who = {"player": args.player, "address": args.address} if hasattr(args, "player") else {}
    who = {k: v for k, v in who.items() if v}
    match args.action:
        case "tables":
            page = {"limit": args.limit} | ({"after": args.after} if args.after else {})
            return "GET", f"/admin/tables?{urlencode(page)}", None
        case "bans":
            return "GET", "/admin/bans", None
        case "reports":
            page = {"limit": args.limit} | ({"before": args.before} if args.before else {})
            return "GET", f"/admin/reports?{urlencode(page)}", None
        case "table":
            return "GET", f"/admin/tables/{quote(args.table_id, safe='')}", None
        case "close":
            return "POST", f"/admin/tables/{quote(args.table_id, safe='')}/close", {}
        case "disconnect" | "unban":
            return "POST", f"/admin/{args.action}", who
        case "ban":
            return "POST", "/admin/bans", {**who, "seconds": args.minutes * 60}
        case "announce":
            return "POST", "/admin/announce", {"message": args.message, "maintenance": not args.end}
        case _:
            return "POST", "/admin/drain", {}


def call(node: str, token: str, method: str, path: str, body: Any) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        node.rstrip("/") + path,
        data=data,
        method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def run(args: argparse.Namespace) -> int:
    token = args.token or os.environ.get("TAROT_ADMIN_TOKEN")
    if not token:
        print("tarot admin: give the admin token (--token or TAROT_ADMIN_TOKEN)", file=sys.stderr)
        return 2
    method, path, body = request_of(args)
    failed = 0
    for node in args.node:
        try:
            status, answer = call(node, token, method, path, body)
        except (OSError, ValueError) as e:
            print(f"tarot admin: {node}: {e}", file=sys.stderr)
            failed += 1
            continue
        print(json.dumps({"node": node, "status": status, "answer": answer}), flush=True)
        failed += status >= 400
    return 1 if failed else 0
