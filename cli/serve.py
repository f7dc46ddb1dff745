"""``tarot serve``: run a server node (memory store by default, Redis with --redis)."""

from __future__ import annotations

import argparse
from typing import Any

from server.event_loop import LOOPS
from server.settings import split_list

SECURITY_SETTINGS = (
    "max_tables",
    "tables_per_connection",
    "tables_per_address",
    "connections_per_address",
    "reviews_per_player",
    "api_per_second",
    "api_burst",
    "api_in_flight",
    "send_buffer_bytes",
    "empty_table_seconds",
    "gc_sweep_ms",
    "event_loop",
    "allowed_hosts",
    "allowed_origins",
    "trusted_proxies",
    "metrics_port",
    "metrics_host",
    "metrics_token",
    "chat_per_window",
    "chat_window_seconds",
    "chat_guest_deals",
    "chat_mutes_max",
    "rematch_seconds",
    "admin_port",
    "admin_host",
    "admin_token",
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser("serve", help="run the game server (browser client at http://HOST:PORT/)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks one)")
    p.add_argument(
        "--redis", dest="redis_url", help="Redis URL (or TAROT_REDIS_URL); memory if unset"
    )
    p.add_argument(
        "--db",
        dest="db_url",
        help="history database URL, sqlite:///PATH or postgresql://... (or TAROT_DB_URL;"
        " default: a SQLite file, docs/DEPLOY.md)",
    )
    p.add_argument("--log-format", choices=["text", "json"], help="log lines as text or JSON")
    p.add_argument("--node-id", help="this node's name in leases and logs")
    p.add_argument(
        "--ai-pause",
        dest="ai_pause_seconds",
        type=float,
        help="seconds before each AI move, so humans can follow (default 0)",
    )
    p.add_argument(
        "--bot-workers",
        type=int,
        help="processes for the expert and strong AI (default 1; about one per spare core)",
    )
    p.add_argument(
        "--duplicate-daily",
        dest="duplicate_daily_deals",
        type=int,
        help="deals of the daily robot duplicate event made at 00:00 UTC (or"
        " TAROT_DUPLICATE_DAILY; default 0: none; docs/DUPLICATE.md)",
    )
    limits = p.add_argument_group("security (docs/DEPLOY.md, Security; 0: no limit)")
    for flag, what in (
        ("--max-tables", "open tables on the server, every node's (5000)"),
        ("--tables-per-connection", "open tables one connection may create (8)"),
        ("--tables-per-address", "open tables one client address may create (32)"),
        ("--connections-per-address", "WebSockets open from one client address (64)"),
        ("--reviews-per-player", "deal reviews analysed for one player an hour (10)"),
        ("--api-burst", "history API requests one address may send in a burst (50)"),
        ("--api-in-flight", "history API requests answered at once, more get 503 (16)"),
        ("--send-buffer-bytes", "unsent bytes one connection may hold, else dropped (1 MiB)"),
    ):
        limits.add_argument(flag, type=int, help=what)
    limits.add_argument(
        "--api-per-second", type=float, help="history API requests a second per address (10)"
    )
    limits.add_argument(
        "--empty-table-seconds", type=float, help="a table nobody sits at goes then (600)"
    )
    limits.add_argument(
        "--gc-sweep-ms",
        type=float,
        help="collect the young objects this often (50; 0: CPython's own collections)",
    )
    limits.add_argument(
        "--event-loop",
        choices=LOOPS,
        help="the event loop (auto: uvloop where installed)",
    )
    for flag, what in (
        ("--allowed-hosts", "Host names the node answers (default: loopback + --host; * any)"),
        ("--allowed-origins", "page origins that may open WebSockets (default: the node's own)"),
        ("--trusted-proxies", "proxy addresses whose X-Forwarded-For names the client"),
    ):
        limits.add_argument(flag, type=split_list, help=what + ", comma-separated")
    limits.add_argument("--metrics-port", type=int, help="serve /metrics only on this port")
    limits.add_argument("--metrics-host", help="... on this address (127.0.0.1)")
    limits.add_argument(
        "--metrics-token", help="/metrics needs 'Authorization: Bearer TOKEN' (or env)"
    )
    admin = p.add_argument_group("admin API (docs/DEPLOY.md, Admin API)")
    admin.add_argument("--admin-port", type=int, help="serve the admin API on this port")
    admin.add_argument("--admin-host", help="... on this address (127.0.0.1)")
    admin.add_argument(
        "--admin-token", help="the admin API's bearer token, 16+ characters (or TAROT_ADMIN_TOKEN)"
    )
    p.add_argument(
        "--queue",
        metavar="NAME=VALUE,...",
        help="quick play's settings, e.g. fill_two_seconds=30,ready_seconds=10 (docs/DEPLOY.md,"
        " Quick play; or TAROT_QUEUE)",
    )
    chat = p.add_argument_group("table chat (docs/DEPLOY.md, Chat)")
    chat.add_argument("--chat-per-window", type=int, help="chat messages per sender a window (5)")
    chat.add_argument("--chat-window-seconds", type=float, help="... in this window (10)")
    chat.add_argument(
        "--chat-guest-deals",
        type=int,
        help="deals a guest seat plays at a table before it may write (3; 0: at once)",
    )
    chat.add_argument(
        "--chat-mutes-max",
        type=int,
        help="names a player may mute, and accounts it may block (100)",
    )
    chat.add_argument(
        "--rematch-seconds",
        type=float,
        help="a rematch offer closes this long after its first answer (30)",
    )
    redis = p.add_argument_group("with --redis")
    redis.add_argument("--lease-ms", type=int, help="a table's lease, renewed every third (5000)")
    redis.add_argument("--redis-pool", type=int, help="connections to Redis per node (32)")
    redis.add_argument(
        "--redis-timeout", type=float, help="seconds before Redis counts as unavailable (2)"
    )
    redis.add_argument(
        "--idle-ttl-hours", type=float, help="tables expire this long after a change (168)"
    )
    redis.add_argument(
        "--finished-ttl-hours", type=float, help="... or this long after they finish (24)"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Exit status: 0 after a drain; 2 when a setting is wrong (refused before the start, or
    by Redis or the database at the start); 1 when the node cannot start for another reason
    (a port taken, Redis silent). Each failure is one line (docs/DEPLOY.md, "Exit status")."""
    from server import event_loop
    from server.app import CannotListen, run_server
    from server.history import HistoryError
    from server.logs import fatal, setup_logging
    from server.queue.settings import QueueSettings
    from server.settings import Settings, SettingsError
    from server.store.base import StoreError, StoreRefused

    try:
        settings = Settings.from_env(
            host=args.host,
            port=args.port,
            redis_url=args.redis_url,
            db_url=args.db_url,
            log_format=args.log_format,
            node_id=args.node_id,
            ai_pause_seconds=args.ai_pause_seconds,
            bot_workers=args.bot_workers,
            lease_ms=args.lease_ms,
            redis_pool=args.redis_pool,
            redis_timeout=args.redis_timeout,
            idle_ttl_hours=args.idle_ttl_hours,
            finished_ttl_hours=args.finished_ttl_hours,
            queue=None if args.queue is None else QueueSettings.parse(args.queue),
            duplicate_daily_deals=args.duplicate_daily_deals,
            **{name: getattr(args, name) for name in SECURITY_SETTINGS},
        )
    except SettingsError as e:
        return fatal(f"tarot serve: {e}", 2, args.log_format)
    setup_logging(settings.log_format, node=settings.node_id)
    try:
        event_loop.run(run_server(settings), settings.event_loop)
    except (StoreRefused, HistoryError) as e:  # Redis or the database refuses a setting
        return fatal(f"tarot serve: {e}", 2, settings.log_format)
    except (StoreError, CannotListen) as e:  # Redis did not answer at start-up; a port taken
        return fatal(f"tarot serve: {e}", 1, settings.log_format)
    return 0
