"""Server settings: one dataclass, built from CLI flags and the environment."""

from __future__ import annotations

import ipaddress
import math
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from server.duplicate.definition import DEALS_MAX
from server.event_loop import LOOPS, missing
from server.queue.settings import QueueSettings
from server.setting_checks import TTL_HOURS, check_table_options

# Still imported from here by the rest of the server and the CLI.
from server.setting_checks import SettingsError as SettingsError
from server.setting_checks import split_list as split_list

_COUNTS = (
    "port",
    "send_buffer_bytes",
    "rate_burst",
    "abuse_strikes",
    "lease_ms",
    "bot_workers",
    "redis_pool",
    "max_tables",
    "tables_per_connection",
    "tables_per_address",
    "connections_per_address",
    "reviews_per_player",
    "api_burst",
    "api_in_flight",
    "duplicate_daily_deals",
    "chat_per_window",
    "chat_guest_deals",
    "chat_mutes_max",
)
_DURATIONS_AND_RATES = (
    "rate_per_second",
    "api_per_second",
    "ai_pause_seconds",
    "next_deal_seconds",
    "drain_seconds",
    "redis_timeout",
    "idle_ttl_hours",
    "finished_ttl_hours",
    "empty_table_seconds",
    "unload_idle_seconds",
    "chat_window_seconds",
    "rematch_seconds",
    "gc_sweep_ms",
)


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
WILDCARD_HOSTS = ("0.0.0.0", "::", "")


def default_node_id() -> str:
    """A node's name when ``--node-id`` is not given: its pid alone named two containers of
    one image alike (each process 1), and nodes sharing a name share the matcher lock, the
    table leases, the heartbeat and the ``online`` count; the random part keeps them apart."""
    return f"node-{os.getpid()}-{secrets.token_hex(3)}"


@dataclass(frozen=True, slots=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8765
    redis_url: str | None = None
    # The history database (server/history): None is the default SQLite file.
    db_url: str | None = None
    log_format: str = "text"  # "text" or "json"
    node_id: str = field(default_factory=default_node_id)
    rate_per_second: float = 50.0  # per connection, refilled continuously
    rate_burst: int = 200
    abuse_strikes: int = 200  # refused-for-rate messages before the connection is closed
    ai_pause_seconds: float = 0.0  # a delay before each AI move, so humans can follow
    next_deal_seconds: float = 30.0  # how long a finished deal waits for "next_deal"
    lease_ms: int = 5000
    drain_seconds: float = 10.0
    bot_workers: int = 1  # processes for search bots
    redis_pool: int = 32  # connections per node; callers wait for a free one
    redis_timeout: float = 2.0  # seconds before a Redis call counts as Redis unavailable
    idle_ttl_hours: float = 7 * 24  # a table is forgotten this long after its last change
    finished_ttl_hours: float = 24  # ... or this long after it finished
    # Limits against a hostile client (docs/DEPLOY.md, "Security"); 0 means no limit.
    max_tables: int = 5000  # open (waiting or playing) tables in the store, all nodes
    tables_per_connection: int = 8  # open tables one connection has created
    tables_per_address: int = 32  # ... one client address has created (on this node)
    connections_per_address: int = 64  # open WebSockets from one client address (this node)
    api_per_second: float = 10.0  # history API requests from one address (this node)
    api_burst: int = 50  # ... in a burst
    api_in_flight: int = 16  # history API requests answered at once (this node); more: 503
    reviews_per_player: int = 10  # deal reviews analysed for one player an hour (all nodes)
    send_buffer_bytes: int = 1 << 20  # unsent bytes one connection may hold; over: dropped
    unload_idle_seconds: float = 60.0  # a table no local connection follows is unloaded then
    empty_table_seconds: float = 600.0  # a waiting table with nobody seated is removed then
    # Table chat (docs/DEPLOY.md, "Chat"): a sender's messages per window, and the deals a
    # guest seat must have played at the table before it may write (0: guests write at once).
    chat_per_window: int = 5
    chat_window_seconds: float = 10.0
    chat_guest_deals: int = 3
    # The names one player (connection or account) may mute, and the accounts one may block:
    # past them ``too_many_mutes`` / ``too_many_blocks`` (each ``muted`` answer lists all).
    chat_mutes_max: int = 100
    # A rematch offer closes this long after its first answer (docs/DEPLOY.md, "Chat"): the
    # seats that did not answer are told, the AI takes them at the new table.
    rematch_seconds: float = 30.0
    # Who may talk to the node: Host names of HTTP requests and Origins of WebSocket
    # handshakes. Empty: the loopback names and the listen address (hosts); the page's
    # own host (origins). "*" allows any.
    allowed_hosts: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    trusted_proxies: tuple[str, ...] = ()  # their X-Forwarded-For names the client address
    metrics_token: str | None = None  # /metrics then needs "Authorization: Bearer TOKEN"
    metrics_port: int | None = None  # /metrics then answers only there (on metrics_host)
    metrics_host: str = "127.0.0.1"
    # Duplicate events (docs/DUPLICATE.md): the deals of the daily robot event the node makes
    # each day at 00:00 UTC (0: none), and the AI level around a robot event's entrant.
    duplicate_daily_deals: int = 0
    duplicate_ai_level: str = "strong"
    # The admin API (server/net/admin.py): on its own port only, with a token.
    admin_token: str | None = None
    admin_port: int | None = None
    admin_host: str = "127.0.0.1"
    # The young generation is collected this often (server/gc_tuning.py); 0: CPython's own.
    gc_sweep_ms: float = 50.0
    event_loop: str = "auto"  # server/event_loop.py: uvloop where installed, or asyncio
    queue: QueueSettings = field(default_factory=QueueSettings)  # quick play

    def __post_init__(self) -> None:
        _check_numbers(self)
        _check_limits(self)
        _check_admin(self)
        _check_process(self)
        if not 0 <= self.port <= 65535:
            raise SettingsError(f"port must be 0-65535, not {self.port}")
        if self.log_format not in ("text", "json"):
            raise SettingsError(f"log format must be text or json, not {self.log_format!r}")
        _check_urls(self)
        if self.rate_per_second <= 0 or self.rate_burst < 1:
            raise SettingsError("the rate limit must be positive")
        if self.ai_pause_seconds < 0 or self.next_deal_seconds < 0 or self.drain_seconds < 0:
            raise SettingsError("pauses cannot be negative")
        if not 1 <= self.bot_workers <= 256:
            raise SettingsError(f"bot workers must be 1-256, not {self.bot_workers}")
        if self.lease_ms < 300:
            raise SettingsError(f"the lease must last at least 300 ms, not {self.lease_ms}")
        if self.redis_pool < 1 or self.redis_timeout <= 0:
            raise SettingsError("the Redis pool and time-out must be positive")
        # A minute at least (a TTL that rounds to 0 ms would delete a table at each
        # commit), and at most ~11 years (1e300 hours would be a 300-digit expiry).
        if not (
            TTL_HOURS[0] <= self.idle_ttl_hours <= TTL_HOURS[1]
            and TTL_HOURS[0] <= self.finished_ttl_hours <= TTL_HOURS[1]
        ):
            raise SettingsError(
                f"table lifetimes (TTLs) must be {TTL_HOURS[0]:.4f}-{TTL_HOURS[1]:,} hours"
                " (a minute to about 11 years)"
            )

    def hosts(self) -> tuple[str, ...]:
        """The Host names HTTP requests and handshakes may carry (``*``: any)."""
        if self.allowed_hosts:
            return self.allowed_hosts
        listen = () if self.host in WILDCARD_HOSTS else (self.host,)
        return (*LOOPBACK_HOSTS, *listen)

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """Flags (``overrides``, None meaning unset) over TAROT_* variables over defaults."""
        env: dict[str, object] = {}
        if url := os.environ.get("TAROT_REDIS_URL"):
            env["redis_url"] = url
        if url := os.environ.get("TAROT_DB_URL"):
            env["db_url"] = url
        if fmt := os.environ.get("TAROT_LOG_FORMAT"):
            env["log_format"] = fmt
        if pause := os.environ.get("TAROT_AI_PAUSE"):
            try:
                env["ai_pause_seconds"] = float(pause)
            except ValueError:
                raise SettingsError(f"TAROT_AI_PAUSE must be a number, not {pause!r}") from None
        for name in ("allowed_hosts", "allowed_origins", "trusted_proxies"):
            if listed := os.environ.get(f"TAROT_{name.upper()}"):
                env[name] = split_list(listed)
        env |= _tokens_from_env()
        if queue := os.environ.get("TAROT_QUEUE"):
            env["queue"] = QueueSettings.parse(queue)
        env.update(_duplicate_env())
        env.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**env)  # type: ignore[arg-type]


def _duplicate_env() -> dict[str, object]:
    daily = os.environ.get("TAROT_DUPLICATE_DAILY")
    if not daily:
        return {}
    if not daily.isdigit():
        raise SettingsError(f"TAROT_DUPLICATE_DAILY must be a whole number, not {daily!r}")
    return {"duplicate_daily_deals": int(daily)}


def _tokens_from_env() -> dict[str, object]:
    """``TAROT_METRICS_TOKEN`` and ``TAROT_ADMIN_TOKEN``, those that are set."""
    named = {
        name: os.environ.get(f"TAROT_{name.upper()}") for name in ("metrics_token", "admin_token")
    }
    return {name: token for name, token in named.items() if token}


def _check_urls(settings: Settings) -> None:
    if settings.redis_url is not None and not settings.redis_url.startswith(
        ("redis://", "rediss://", "unix://")
    ):
        raise SettingsError(f"redis URL must start with redis://, not {settings.redis_url!r}")
    if settings.db_url is not None:
        from server.history.database import database_url  # SQLAlchemy only when it is asked for
        from server.history.errors import BadDatabaseUrl

        try:
            url = database_url(settings.db_url)
        except BadDatabaseUrl as e:
            raise SettingsError(str(e)) from None
        if url.get_backend_name() == "sqlite" and url.database:
            _check_folder(Path(url.database))


def _check_folder(database: Path) -> None:
    """The SQLite file's folder exists or can be made: its nearest existing parent is a
    folder (before: "cannot listen on ...: File exists", from the folder's creation)."""
    folder = database.absolute().parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise SettingsError(f"the history database's folder cannot be made: {folder} is a file")


def _check_process(settings: Settings) -> None:
    """The event loop and the collector's sweep (server/event_loop.py, server/gc_tuning.py)."""
    if settings.event_loop not in LOOPS:
        raise SettingsError(
            f"the event loop must be one of {', '.join(LOOPS)}, not {settings.event_loop!r}"
        )
    why = missing(settings.event_loop)
    if why is not None:
        raise SettingsError(f"the event loop {settings.event_loop}: {why}")
    if settings.gc_sweep_ms < 0:
        raise SettingsError(
            f"the collector's sweep period cannot be negative: {settings.gc_sweep_ms}"
        )


def _check_numbers(settings: Settings) -> None:
    """Counts are whole numbers; durations and rates finite numbers (NaN passes every
    comparison, inf overflows)."""
    for name in _COUNTS:
        value = getattr(settings, name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingsError(f"{name} must be a whole number, not {value!r}")
    for name in _DURATIONS_AND_RATES:
        value = getattr(settings, name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SettingsError(f"{name} must be a number, not {value!r}")
        if not math.isfinite(value):
            raise SettingsError(f"{name} must be a finite number, not {value}")


def _check_features(settings: Settings) -> None:
    """Duplicate events' and the table chat's settings."""
    if not 0 <= settings.duplicate_daily_deals <= DEALS_MAX:
        raise SettingsError(f"duplicate_daily_deals must be 0-{DEALS_MAX} (0: no daily event)")
    check_table_options("duplicate_", ai_level=settings.duplicate_ai_level)
    if settings.chat_per_window < 1 or settings.chat_window_seconds <= 0:
        raise SettingsError("the chat's rate must be positive")
    if settings.chat_guest_deals < 0:
        raise SettingsError("chat_guest_deals cannot be negative")
    if settings.chat_mutes_max < 1:
        raise SettingsError("chat_mutes_max must be at least 1")
    if settings.rematch_seconds <= 0:
        raise SettingsError("rematch_seconds must be positive")


def _check_admin(settings: Settings) -> None:
    if settings.admin_token is not None and len(settings.admin_token) < 16:
        raise SettingsError("the admin token must have at least 16 characters")
    if settings.admin_port is not None and (
        settings.admin_token is None or not 0 <= settings.admin_port <= 65535
    ):
        raise SettingsError("the admin API needs a token (--admin-token) and a port 0-65535")


def _check_limits(settings: Settings) -> None:
    limits = ("max_tables", "tables_per_connection", "tables_per_address")
    counts = ("connections_per_address", "reviews_per_player", "api_per_second", "api_in_flight")
    for name in (*limits, *counts):
        if getattr(settings, name) < 0:
            raise SettingsError(f"{name} cannot be negative (0 means no limit)")
    _check_features(settings)
    if settings.api_burst < 1:
        raise SettingsError("api_burst must be at least 1")
    if settings.empty_table_seconds <= 0:
        raise SettingsError("empty_table_seconds must be positive")
    if settings.metrics_port is not None and not 0 <= settings.metrics_port <= 65535:
        raise SettingsError(f"metrics port must be 0-65535, not {settings.metrics_port}")
    if settings.send_buffer_bytes < 0:
        raise SettingsError("send_buffer_bytes cannot be negative (0 means no limit)")
    for proxy in settings.trusted_proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise SettingsError(
                f"trusted proxy {proxy!r} is not an address or a network (10.0.0.5, 10.0.0.0/8)"
            ) from None
    if settings.metrics_token is not None and len(settings.metrics_token) < 16:
        raise SettingsError("the metrics token must have at least 16 characters")
