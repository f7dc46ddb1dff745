"""``tarot serve``: the node's WebSocket + HTTP server and its graceful shutdown.

SIGTERM or Ctrl-C: stop taking connections, tell every client to reconnect
(``bye`` with reason ``shutdown``; with Redis they resume on another node with
their tokens), hand the leases over (all in one round trip), and exit when the clients are gone or
after ``drain_seconds``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections import Counter
from collections.abc import Sequence
from http import HTTPStatus

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response
from websockets.typing import Subprotocol

from protocol import SUBPROTOCOLS
from protocol import models as m

from . import collector, http
from .connection import Connection
from .node import Node
from .settings import Settings
from .store import MemoryStore, TableStore

log = logging.getLogger("tarot.server")
MAX_WS_MESSAGE = 1024 * 1024  # larger frames close the connection (abuse); 64 KiB gets an error


async def make_store(settings: Settings) -> TableStore:
    if settings.redis_url is None:
        return MemoryStore()
    from .redis_store import RedisStore  # imported here: the memory default needs no Redis

    hour_ms = 3600 * 1000
    return await RedisStore.connect(
        settings.redis_url,
        max_connections=settings.redis_pool,
        op_timeout=settings.redis_timeout,
        idle_ttl_ms=round(settings.idle_ttl_hours * hour_ms),
        finished_ttl_ms=round(settings.finished_ttl_hours * hour_ms),
    )


def choose_subprotocol(ws: ServerConnection, offered: Sequence[str]) -> Subprotocol | None:
    """The client's first offered codec that we speak; otherwise JSON (no header)."""
    for name in offered:
        if name in SUBPROTOCOLS:
            return Subprotocol(name)
    return None


class App:
    """A running node: ``await App.start(settings)``, then ``await app.stop()``."""

    def __init__(self, node: Node, server: Server) -> None:
        self.node = node
        self.server = server
        self.connections: set[Connection] = set()

    @property
    def port(self) -> int:
        sock = next(iter(self.server.sockets))
        return int(sock.getsockname()[1])

    @property
    def url(self) -> str:
        return f"ws://{self.node.settings.host}:{self.port}/"

    @classmethod
    async def start(cls, settings: Settings, store: TableStore | None = None) -> App:
        store = store or await make_store(settings)
        node = Node(settings, store)
        await node.start()
        app: App | None = None

        async def handler(ws: ServerConnection) -> None:
            assert app is not None
            connection = Connection(node, ws)
            app.connections.add(connection)
            try:
                await connection.serve()
            finally:
                app.connections.discard(connection)

        async def process_request(ws: ServerConnection, request: Request) -> Response | None:
            assert app is not None
            if http.is_websocket(request):
                return None
            return await app.http(request)

        server = await serve(
            handler,
            settings.host,
            settings.port,
            subprotocols=[*SUBPROTOCOLS],  # type: ignore[list-item]
            select_subprotocol=choose_subprotocol,
            process_request=process_request,
            max_size=MAX_WS_MESSAGE,
            max_queue=64,
            ping_interval=20,
            ping_timeout=20,
        )
        app = cls(node, server)
        return app

    async def http(self, request: Request) -> Response:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            healthy = not self.node.draining and await self._store_answers()
            status = HTTPStatus.OK if healthy else HTTPStatus.SERVICE_UNAVAILABLE
            return http.text(status, "ok\n" if healthy else "unavailable\n")
        if path == "/metrics":
            phases = Counter(
                (r.state.phase.value if r.state else r.data.status)
                for r in self.node.runtimes.values()
            )
            body = self.node.metrics.render(dict(phases))
            return http.response(HTTPStatus.OK, body, "text/plain; version=0.0.4")
        return http.static_file(path)

    async def _store_answers(self) -> bool:
        try:
            return await asyncio.wait_for(self.node.store.ping(), timeout=1.0)
        except Exception:
            return False

    async def stop(self, drain_seconds: float | None = None) -> None:
        """Graceful shutdown (see the module docstring)."""
        drain = self.node.settings.drain_seconds if drain_seconds is None else drain_seconds
        self.server.close(close_connections=False)
        # Clients first: they reconnect elsewhere while the leases are handed over.
        bye = m.Bye(reason="shutdown", message="the server is restarting: reconnect and resume")
        for connection in list(self.connections):
            connection.send(bye)
        await self.node.release_leases()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(drain):
                while self.connections:
                    await asyncio.sleep(0.05)
        for connection in list(self.connections):
            await connection.ws.close(1001, "server shutdown")
        await self.server.wait_closed()
        await self.node.stop()
        await self.node.store.close()


async def run_server(settings: Settings) -> None:
    app = await App.start(settings)
    collector.settle()
    log.info(
        "serving on http://%s:%d/ (store: %s)",
        settings.host,
        app.port,
        "redis" if settings.redis_url else "memory",
    )
    print(f"tarot server on http://{settings.host}:{app.port}/  (Ctrl-C to stop)", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("shutting down")
    await app.stop()
