"""``tarot serve``: the node's WebSocket + HTTP server and its graceful shutdown.

SIGTERM or Ctrl-C: stop taking connections, tell every client to reconnect
(``bye`` with reason ``shutdown``; with Redis they resume on another node with
their tokens), hand the leases over (all in one round trip), and exit when the clients are gone or
after ``drain_seconds``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import logging
import signal
import time
from collections import Counter
from collections.abc import Sequence
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response
from websockets.typing import Subprotocol

from protocol import SUBPROTOCOLS
from protocol import models as m
from server.net.admin import Admin, news
from server.net.admin_http import serve_admin
from server.net.api_limits import ApiLimits
from server.net.connection import Connection
from server.node.build import build_node
from server.node.node import Node
from server.store.base import TableStore

from . import gc_tuning as collector
from .errors import ServerError
from .logs import announce_start
from .net import access, health, http
from .settings import Settings

if TYPE_CHECKING:
    from server.node.archive import Archive
    from server.node.runtime import TableRuntime

log = logging.getLogger("tarot.server")
MAX_WS_MESSAGE = 1024 * 1024  # larger frames close the connection (abuse); 64 KiB gets an error
OPEN_TIMEOUT = 5.0  # seconds a client has to finish its handshake (half-open ones hold a file)


def choose_subprotocol(ws: ServerConnection, offered: Sequence[str]) -> Subprotocol | None:
    """The client's first offered codec that we speak; otherwise JSON (no header)."""
    for name in offered:
        if name in SUBPROTOCOLS:
            return Subprotocol(name)
    return None


class CannotListen(ServerError):
    """A port the node was told to listen on is taken (or not allowed): one line says which."""


async def _listening(what: str, handler: Any, host: str, port: int, **options: Any) -> Server:
    try:
        return await serve(handler, host, port, **options)
    except OSError as e:
        reason = str(e.strerror or e).rsplit("): ", 1)[-1]
        raise CannotListen(f"cannot listen on {host}:{port} ({what}): {reason}") from None


class App:
    """A running node: ``await App.start(settings)``, then ``await app.stop()``."""

    def __init__(self, node: Node, server: Server) -> None:
        self.node = node
        self.server = server
        self.metrics_server: Server | None = None
        self.admin_server: asyncio.Server | None = None
        self.stop_requested = asyncio.Event()  # ``tarot admin drain``: as SIGTERM
        self.connections: set[Connection] = set()
        self.files = http.assets()
        self.per_address: Counter[str] = Counter()  # open WebSockets (and handshakes)
        self.addresses: dict[ServerConnection, str] = {}
        self._releases: set[asyncio.Task[None]] = set()
        limits = node.settings
        self.api_limits = ApiLimits(limits.api_per_second, limits.api_burst, limits.api_in_flight)

    @property
    def port(self) -> int:
        sock = next(iter(self.server.sockets))
        return int(sock.getsockname()[1])

    @property
    def url(self) -> str:
        return f"ws://{self.node.settings.host}:{self.port}/"

    @classmethod
    async def start(
        cls, settings: Settings, store: TableStore | None = None, archive: Archive | None = None
    ) -> App:
        """``archive``: where finished deals go (``tarot serve`` opens the history's)."""
        node = await build_node(settings, store, archive)
        await node.start()
        app: App | None = None

        async def handler(ws: ServerConnection) -> None:
            assert app is not None
            connection = Connection(node, ws)
            connection.address = app.addresses.get(ws, "")
            app.connections.add(connection)
            try:
                await connection.serve()
            finally:
                app.connections.discard(connection)

        async def process_request(ws: ServerConnection, request: Request) -> Response | None:
            assert app is not None
            # Health checks say one word: load balancers and probes may ask them by any name.
            if request.path not in health.HEALTH_PATHS and not access.is_host_allowed(
                request.headers, settings.hosts()
            ):
                return http.text(HTTPStatus.MISDIRECTED_REQUEST, "unknown host\n")
            if http.is_websocket(request):
                return app.admit(ws, request)
            return await app.http(request, ws)

        server = await _listening(
            "the node",
            handler,
            settings.host,
            settings.port,
            subprotocols=[*SUBPROTOCOLS],
            select_subprotocol=choose_subprotocol,
            process_request=process_request,
            max_size=MAX_WS_MESSAGE,
            # No permessage-deflate: frames here are small (it saved little) and a
            # deflate bomb inflates ~1,000x (24 connections held 2.5 GB); without it a
            # connection holds at most max_queue x max_size bytes of input.
            compression=None,
            max_queue=16,
            ping_interval=20,
            ping_timeout=20,
            open_timeout=OPEN_TIMEOUT,
            server_header=http.SERVER_HEADER,
        )
        app = cls(node, server)
        node.watch.on_news = lambda before, after: news(app.connections, before, after)
        if settings.admin_port is not None:
            admin = Admin(node, lambda: list(app.connections), app.stop_requested.set)
            app.admin_server = await serve_admin(
                settings.admin_host, settings.admin_port, admin.handle
            )
        if settings.metrics_port is not None:
            app.metrics_server = await _listening(
                "--metrics-port",
                handler,
                settings.metrics_host,
                settings.metrics_port,
                process_request=lambda ws, request: app.metrics_only(request),
                open_timeout=OPEN_TIMEOUT,
                server_header=http.SERVER_HEADER,
            )
        return app

    def admit(self, ws: ServerConnection, request: Request) -> Response | None:
        """A WebSocket handshake: from an allowed page, within its address's share."""
        settings = self.node.settings
        if not access.is_origin_allowed(request.headers, settings.allowed_origins):
            return http.text(HTTPStatus.FORBIDDEN, "this page's origin may not connect here\n")
        address = self.client_address(request, ws)
        banned = self.node.moderation.address_banned(address)
        if banned is not None:
            self.node.metrics.refused.labels(code="banned").inc()
            return http.text(HTTPStatus.FORBIDDEN, "this address may not connect for now\n")
        cap = settings.connections_per_address
        if cap and self.per_address[address] >= cap:
            self.node.metrics.refused.labels(code="too_many_connections").inc()
            return http.text(
                HTTPStatus.TOO_MANY_REQUESTS, f"at most {cap} connections from one address\n"
            )
        self.per_address[address] += 1
        self.addresses[ws] = address
        release = asyncio.get_running_loop().create_task(self._release(ws, address))
        self._releases.add(release)  # the loop keeps only a weak reference to a task
        release.add_done_callback(self._releases.discard)
        return None

    async def _release(self, ws: ServerConnection, address: str) -> None:
        """The connection is gone (or its handshake failed): its address's place is free."""
        await ws.wait_closed()
        self.addresses.pop(ws, None)
        self.per_address[address] -= 1
        if self.per_address[address] <= 0:
            del self.per_address[address]
            self.node.lobby.forget_address(address)

    @property
    def metrics_port(self) -> int | None:
        if self.metrics_server is None:
            return None
        return int(next(iter(self.metrics_server.sockets)).getsockname()[1])

    def metrics_only(self, request: Request) -> Response:
        """The metrics listener answers /metrics and nothing else."""
        if request.path.split("?", 1)[0] != "/metrics" or http.is_websocket(request):
            return http.text(HTTPStatus.NOT_FOUND, "not found\n")
        return http.method_refusal(request) or http.for_method(request, self._metrics())

    async def http(self, request: Request, ws: ServerConnection) -> Response:
        """A plain HTTP request: GET or HEAD only (405 else)."""
        refused = http.method_refusal(request)
        if refused is not None:
            return refused
        return http.for_method(request, await self._http(request, ws))

    async def _http(self, request: Request, ws: ServerConnection) -> Response:
        path = request.path.split("?", 1)[0]
        if path in health.HEALTH_PATHS:
            return await health.answer(path, self.node)
        if path == "/metrics" and self._may_read_metrics(request, ws):
            return self._metrics()
        if path.startswith("/api/"):
            return await self._api(request, ws)
        return http.static_file(path, self.files)

    async def _api(self, request: Request, ws: ServerConnection) -> Response:
        """The history's JSON API (docs/API.md), within its limits (``api_limits.py``);
        SQLAlchemy is imported by a node with one."""
        archive = self.node.archive
        if archive is None:
            return http.json_error(
                HTTPStatus.NOT_FOUND, "not_found", "this server keeps no history"
            )
        address = self.client_address(request, ws)
        refused = self.api_limits.refusal(address)
        if refused is not None:
            code = "api_rate_limited" if refused.status_code == 429 else "api_busy"
            self.node.metrics.refused.labels(code=code).inc()
            return refused
        from server.net.api import respond

        with self.api_limits.slot():
            return await respond(archive.engine, request.path)

    def _may_read_metrics(self, request: Request, ws: ServerConnection) -> bool:
        """On the main port: with the token when one is set, else from this machine only;
        never when the metrics have a port of their own."""
        settings = self.node.settings
        if settings.metrics_port is not None:
            return False
        if settings.metrics_token is not None:
            given = request.headers.get("Authorization", "")
            return hmac.compare_digest(given.encode(), f"Bearer {settings.metrics_token}".encode())
        # The client's address, not the peer's: behind a trusted local proxy (nginx on this
        # machine) every remote client's request came from 127.0.0.1 and read the metrics.
        try:
            return ipaddress.ip_address(self.client_address(request, ws)).is_loopback
        except ValueError:
            return False

    def client_address(self, request: Request, ws: ServerConnection) -> str:
        """Who sent ``request``: the peer, or the client a trusted proxy names (``access``).
        Every check by address (bans, the connection and API limits, /metrics) uses it."""
        peer = str(ws.remote_address[0]) if ws.remote_address else ""
        return access.client_address(peer, request.headers, self.node.settings.trusted_proxies)

    def _metrics(self) -> Response:
        phases = Counter(
            (r.state.phase.value if r.state else r.data.status)
            for r in self.node.runtimes.values()
            if self._counts_here(r)
        )
        body = self.node.metrics.render(dict(phases))
        return http.response(HTTPStatus.OK, body, "text/plain; version=0.0.4")

    def _counts_here(self, runtime: TableRuntime) -> bool:
        """A table counts in ``tarot_tables`` on one node: the one that drives it (holds its
        lease); one being played that nobody drives yet, or a table not being played, on the
        node of its first seated human (every node that loaded it counted it before)."""
        if runtime.driving:
            return True
        if runtime.data.status == "playing" and runtime.state is not None:
            return False
        humans = [seat.node for seat in runtime.data.seats if seat.occupant == "human"]
        return bool(humans) and humans[0] in ("", self.node.settings.node_id)

    async def stop(self, drain_seconds: float | None = None) -> None:
        """Graceful shutdown (see the module docstring)."""
        drain = self.node.settings.drain_seconds if drain_seconds is None else drain_seconds
        started = time.monotonic()
        self.server.close(close_connections=False)
        # Clients first: they reconnect elsewhere while the leases are handed over.
        bye = m.Bye(reason="shutdown", message="the server is restarting: reconnect and resume")
        told = list(self.connections)
        for connection in told:
            connection.send(bye)
        log.info("draining: no new connections; %d clients told to reconnect", len(told))
        driven = sum(1 for runtime in self.node.runtimes.values() if runtime.driving)
        await self.node.release_leases()
        log.info("draining: the leases of %d tables handed over", driven)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(drain):
                while self.connections:
                    await asyncio.sleep(0.05)
        left = list(self.connections)
        for connection in left:
            await connection.ws.close(1001, "server shutdown")
        log.info(
            "drained in %.1f s: %d clients left by themselves, %d closed",
            time.monotonic() - started,
            len(told) - len(left),
            len(left),
        )
        await self.server.wait_closed()
        if self.metrics_server is not None:
            self.metrics_server.close()
            await self.metrics_server.wait_closed()
        if self.admin_server is not None:
            self.admin_server.close()
        await self.node.stop()
        await self.node.store.close()
        if self.node.archive is not None:
            await self.node.archive.close()


async def run_server(settings: Settings) -> None:
    from server.history import history_place
    from server.node.archive import Archive  # SQLAlchemy: only for the server that keeps a history

    app = await App.start(settings, archive=await Archive.open(settings.db_url))
    collector.settle()
    app.node.metrics.gc_pauses.watch()
    sweeper = (
        asyncio.create_task(collector.sweep(settings.gc_sweep_ms / 1000))
        if settings.gc_sweep_ms
        else None
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):  # before the node says it is there
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    app.stop_requested = stop  # the admin API's drain sets it too
    store = "redis" if settings.redis_url else "memory"
    url = f"http://{settings.host}:{app.port}/"
    history, note = history_place(settings.db_url)
    announce_start(url, store, history, note, settings.log_format)
    await stop.wait()
    log.info("shutting down")
    await app.stop()
    if sweeper is not None:
        sweeper.cancel()
    app.node.metrics.gc_pauses.unwatch()
