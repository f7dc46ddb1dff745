"""The commits' own Redis connection (a single server): commands pipelined on one socket.

redis-py's path for one ``EVALSHA`` (a pooled connection taken and given back,
its locks, the command's options, the reply's callbacks) cost a node ~70 µs of
CPU per commit, more than the script's own work in Redis: a commit is the one
command a node sends per action. Here a commit is encoded in a few lines, the
commits of one event-loop turn leave in one write, and replies (hiredis
parses them) are matched to their callers in order, as Redis answers the
commands of a connection in the order sent.

It keeps the guarantees ``RedisStore.commit`` needs of its writer: a command is
never sent again (after a lost reply it may have landed: ``commit`` resolves
it); a failure to connect says so (``Error connecting to``: the command never
left, see ``redis_store._never_sent``); a caller that gives up waiting (the
store's time-out) closes the connection, so that a silent socket is not kept,
and the calls still in flight on it fail as connection errors (their outcome
unknown). The next call connects again.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
from typing import Any

import hiredis
from redis.asyncio.connection import parse_url
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError

__all__ = ["Writer", "plain_url"]


def plain_url(url: str) -> bool:
    """Whether ``url`` is one this writer speaks to: TCP without TLS (else redis-py's)."""
    return url.startswith("redis://")


class _Protocol(asyncio.Protocol):
    def __init__(self) -> None:
        self.reader = hiredis.Reader(replyError=ResponseError)
        self.waiting: collections.deque[asyncio.Future[Any]] = collections.deque()
        self.transport: asyncio.Transport | None = None
        self.pending: list[bytes] = []
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            waiter = self.waiting.popleft()
            if not waiter.done():  # else its caller gave up
                waiter.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        while self.waiting:
            waiter = self.waiting.popleft()
            if not waiter.done():
                waiter.set_exception(RedisConnectionError(f"connection to redis lost: {exc}"))

    def send(self, command: bytes) -> asyncio.Future[Any]:
        if not self.pending:  # the first of this turn: all leave at its end, in one write
            asyncio.get_running_loop().call_soon(self._flush)
        self.pending.append(command)
        waiter: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting.append(waiter)
        return waiter

    def _flush(self) -> None:
        data, self.pending = b"".join(self.pending), []
        if self.transport is not None and not self.closed:
            self.transport.write(data)

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()


def encode(args: tuple[Any, ...]) -> bytes:
    """A command in RESP: an array of bulk strings."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        if isinstance(arg, str):
            arg = arg.encode()
        elif not isinstance(arg, bytes):
            arg = str(arg).encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(arg), arg))
    return b"".join(parts)


class Writer:
    """One pipelined connection to one Redis server, for ``EVALSHA`` of known scripts."""

    def __init__(self, url: str, connect_timeout: float = 1.0) -> None:
        options = parse_url(url)
        self.host = str(options.get("host", "localhost"))
        self.port = int(options.get("port", 6379))
        self.db = int(options.get("db", 0))
        self.username = options.get("username")
        self.password = options.get("password")
        self.connect_timeout = connect_timeout
        self._protocol: _Protocol | None = None
        self._connecting = asyncio.Lock()
        self._shas: dict[str, str] = {}

    async def evalsha(self, script: str, keys: list[str], args: list[Any]) -> Any:
        sha = self._shas.get(script)
        if sha is None:
            sha = self._shas[script] = hashlib.sha1(script.encode()).hexdigest()
        try:
            return await self.call("EVALSHA", sha, len(keys), *keys, *args)
        except NoScriptError:  # Redis restarted or flushed its scripts: it did not run
            await self.call("SCRIPT", "LOAD", script)
            return await self.call("EVALSHA", sha, len(keys), *keys, *args)

    async def call(self, *args: Any) -> Any:
        protocol = self._protocol
        if protocol is None or protocol.closed:
            protocol = await self._connect()
        reply = await self._wait(protocol, protocol.send(encode(args)))
        if isinstance(reply, ResponseError):
            if str(reply).startswith("NOSCRIPT"):
                raise NoScriptError(str(reply))
            raise reply
        return reply

    async def _wait(self, protocol: _Protocol, waiter: asyncio.Future[Any]) -> Any:
        try:
            return await waiter
        except asyncio.CancelledError:
            protocol.abort()  # a caller that gives up: the connection is not trusted again
            raise

    async def _connect(self) -> _Protocol:
        async with self._connecting:
            if self._protocol is not None and not self._protocol.closed:
                return self._protocol
            try:
                async with asyncio.timeout(self.connect_timeout):
                    _, protocol = await asyncio.get_running_loop().create_connection(
                        _Protocol, self.host, self.port
                    )
                    await self._hello(protocol)
            except (OSError, TimeoutError, RedisConnectionError, ResponseError) as e:
                raise RedisConnectionError(
                    f"Error connecting to {self.host}:{self.port}: {e}"
                ) from e
            self._protocol = protocol
            return protocol

    async def _hello(self, protocol: _Protocol) -> None:
        """Sign in and select the database, as the URL says."""
        commands: list[tuple[Any, ...]] = []
        if self.password is not None:
            auth = (self.username, self.password) if self.username else (self.password,)
            commands.append(("AUTH", *auth))
        if self.db:
            commands.append(("SELECT", self.db))
        for command in commands:
            reply = await protocol.send(encode(command))
            if isinstance(reply, ResponseError):
                protocol.abort()
                raise reply

    async def aclose(self) -> None:
        if self._protocol is not None:
            self._protocol.abort()
            self._protocol = None
