"""A link to a server that survives drops: requests and their answers, the reader, resuming.

Theory of operation. One reader task reads every message, first applies it to
``state`` (the seat's picture of the table, always as of the latest message
read), then hands it to the request waiting for it, if any, and queues table
traffic (``event``, ``your_turn``, ``snapshot``, ``bye`` and errors no
request claimed) for ``async for``. Requests go one at a time; each returns
its reply or raises ``Refused``. Every request carries an ``id`` and its
answer (or ``error``) the same ``re``, so an answer is never taken for
another's.

A request refused as ``rate_limited`` or ``unavailable`` changed nothing
(PROTOCOL.md section 14): it is sent again, unchanged, after a jittered pause
that doubles (``backoff.Backoff``), for up to ``retry_seconds``; then the
refusal is raised. ``outcome_unknown`` and ``stale`` are raised at once: the
caller looks at what the table did (``resync`` asks the server again).

If the connection drops (or the server says ``bye`` with reason ``shutdown``),
the reader reconnects with the same backoff and resumes the seat with its
token and the last event seen; the server replays what was missed, or sends a
snapshot. A request that was waiting raises ``ConnectionLost``; the stream
goes on as if nothing happened. When the seat cannot be resumed (the token is
refused, the seat was taken by another connection, the table was lost, time
ran out) the stream ends with ``Disconnected``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel, ValidationError
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from protocol import ProtocolError, ServerMessage
from protocol import models as m

from .backoff import Backoff, GaveUp
from .connection import CodecName, TarotSocket
from .errors import ClientError, ConnectionLost, Disconnected, Refused
from .routing import table_url
from .state import TableState

log = logging.getLogger("tarot.client")

Accept = Callable[[ServerMessage], bool]

# Messages that answer a request and are not table traffic.
_REPLIES: tuple[type[m.Model], ...] = (m.Welcome, m.Tables, m.TableCreated, m.Joined, m.Watching)
_REPLIES += (m.Left, m.Pong, m.Ack, m.Muted, m.Blocked, m.Reported, m.Online)
_REPLIES += (m.Searching,)  # after tables, like online: not for the stream
# Refusals that changed nothing and may pass: the request is sent again.
RETRIED = frozenset({"rate_limited", "unavailable"})
_NOT_RESUMABLE = frozenset({"bad_token", "unknown_table", "bad_invite", "table_full", "table_lost"})
LOST = (ConnectionClosed, OSError, InvalidHandshake, TimeoutError)


@dataclass(slots=True)
class _Waiter:
    accept: Accept
    future: asyncio.Future[ServerMessage]


class Link:
    """The connection of a ``Client``, kept open across drops; see the module docstring."""

    def __init__(
        self,
        url: str,
        codec: CodecName,
        *,
        reconnect_seconds: float,
        retry_seconds: float,
        timeout: float,
        client_name: str,
    ) -> None:
        self.url = url
        self.codec = codec
        self.reconnect_seconds = reconnect_seconds
        self.retry_seconds = retry_seconds
        self.timeout = timeout
        self.client_name = client_name
        self.session: str | None = None  # the account's session token, said in each hello
        self.state: TableState | None = None
        self.reconnections = 0
        self.retries = 0  # requests sent again after a refusal that may pass
        self._conn: TarotSocket | None = None
        self._inbox: asyncio.Queue[ServerMessage | ClientError | None] = asyncio.Queue()
        self._waiter: _Waiter | None = None
        self._lock = asyncio.Lock()
        self._connected = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self._closing = False
        self._ended: ClientError | None = None
        self._last_id = 0

    def _begin(self, connection: TarotSocket) -> None:
        self._attach(connection)
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def close(self) -> None:
        """Close the connection for good (the seat's grace period starts on the server)."""
        already, self._closing = self._closing, True
        reader = self._reader
        if self._conn is not None and self._connected.is_set():
            with contextlib.suppress(*LOST):
                await self._conn.close()
        elif reader is not None:
            reader.cancel()  # it was reconnecting
        if reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await reader
        if not already:
            self._end(None)

    async def resync(self) -> None:
        """Drop the connection and resume: the server replays what this seat missed, then
        asks for its turn if it is its turn (after ``outcome_unknown``, say)."""
        conn = self._conn
        if conn is not None and self._connected.is_set():
            with contextlib.suppress(*LOST):
                await conn.close()  # the reader resumes from state.seq

    # ------------------------------------------------------------ table traffic

    def __aiter__(self) -> Link:
        return self

    async def __anext__(self) -> ServerMessage:
        item = await self._inbox.get()
        if item is None:
            self._inbox.put_nowait(None)  # every later call ends too
            raise StopAsyncIteration
        if isinstance(item, ClientError):
            self._inbox.put_nowait(item)
            raise item
        return item

    async def next_message(self, timeout: float | None = None) -> ServerMessage:
        """The next table message (``event``, ``your_turn``, ``snapshot``, ``bye``, ``error``)."""
        async with asyncio.timeout(timeout):
            return await self.__anext__()

    # ------------------------------------------------------------ requests

    async def _request(self, message: m.Request, accept: Accept) -> ServerMessage:
        """Send ``message``; the reply ``accept`` takes, or ``Refused``.

        A refusal in ``RETRIED`` changed nothing: the message is sent again
        after a pause, until ``retry_seconds`` have passed.
        """
        backoff = Backoff(self.retry_seconds)
        while True:
            try:
                return await self._exchange(message, accept)
            except Refused as e:
                e.resent = backoff.tries > 0
                if e.code not in RETRIED:
                    raise
                try:
                    pause = backoff.next_pause()
                except GaveUp:
                    raise e from None
                log.info("%s refused (%s): again in %.2f s", type(message).__name__, e.code, pause)
                self.retries += 1
                await asyncio.sleep(pause)

    async def _exchange(self, message: m.Request, accept: Accept) -> ServerMessage:
        async with self._lock:
            conn = await self._ready()
            self._last_id += 1
            rid = self._last_id
            future: asyncio.Future[ServerMessage] = asyncio.get_running_loop().create_future()

            def answers(reply: ServerMessage) -> bool:
                if isinstance(reply, m.Reply) and reply.re is not None:
                    return reply.re == rid and (isinstance(reply, m.Error) or accept(reply))
                return not isinstance(reply, m.Reply) and accept(reply)  # e.g. join's snapshot

            self._waiter = _Waiter(answers, future)
            try:
                try:
                    await conn.send(message.model_copy(update={"id": rid}))
                except ConnectionClosed as e:
                    raise ConnectionLost("the connection dropped before the request left") from e
                async with asyncio.timeout(self.timeout):
                    reply = await future
            finally:
                self._waiter = None
                if not future.done():
                    future.cancel()
                elif not future.cancelled():
                    future.exception()  # retrieved: it was raised, or the request gave up
        if isinstance(reply, m.Error):
            raise Refused.of(reply)
        return reply

    async def _ready(self) -> TarotSocket:
        """The open connection, waiting while the client reconnects."""
        while True:
            if self._ended is not None:
                raise self._ended
            if self._closing:
                raise Disconnected("the client was closed")
            if self._conn is not None and self._connected.is_set():
                return self._conn
            await self._connected.wait()

    def _fail_waiter(self, error: ClientError) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.future.done():
            waiter.future.set_exception(error)

    # ------------------------------------------------------------ the reader

    def _attach(self, conn: TarotSocket) -> None:
        self._conn = conn
        self._connected.set()

    async def _read(self) -> None:
        while True:
            conn = self._conn
            assert conn is not None
            try:
                message = await conn.recv()
            except (ProtocolError, ValidationError) as e:
                log.warning("ignoring a message the client cannot read: %s", e)
                continue
            except LOST:
                if not await self._connection_lost():
                    return
                continue
            try:
                self._handle(message)
            except Exception as e:  # a bug here must end the stream, not hang it
                log.exception("the client failed on a %s message", message.type)
                self._end(ClientError(f"the client failed on a {message.type} message: {e}"))
                return
            await self._after(conn, message)

    async def _after(self, conn: TarotSocket, message: ServerMessage) -> None:
        """What a message means for the connection: leave it, resume, or nothing."""
        if isinstance(message, m.Bye):
            await self._bye(conn, message)
        elif isinstance(message, m.Error) and message.re is None and message.code == "table_lost":
            self._end(Disconnected(f"the table was lost: {message.message}", "table_lost"))
            with contextlib.suppress(*LOST):
                await conn.close()  # it follows no table now
        elif self.state is not None and self.state.behind:
            log.warning("events %d+ are missing: resuming to get them", self.state.seq + 1)
            with contextlib.suppress(*LOST):
                await conn.close()  # the reader resumes from state.seq

    def _handle(self, message: ServerMessage) -> None:
        if not self._follow(message):
            return  # an event seen already, or after a gap: not for the stream
        claimed = False
        waiter = self._waiter
        if waiter is not None and not waiter.future.done() and waiter.accept(message):
            waiter.future.set_result(message)
            claimed = isinstance(message, m.Error)
        if not claimed and not isinstance(message, _REPLIES):
            self._inbox.put_nowait(message)

    def _follow(self, message: ServerMessage) -> bool:
        """Keep ``state`` in step; False for an event it did not apply (see ``TableState``)."""
        state = self.state
        match message:
            case m.Joined(table_id=table_id, seat=seat, token=token):
                if state is None or (state.table_id, state.seat) != (table_id, seat):
                    self.state = TableState(table_id, seat)
                assert self.state is not None
                self.state.token = token
            case m.Watching(table_id=table_id):
                if state is None or (state.table_id, state.seat) != (table_id, None):
                    self.state = TableState(table_id, None)
            case m.Snapshot() | m.Event() | m.YourTurn() | m.Spectators() if state is not None:
                if message.table_id == state.table_id:
                    return state.apply(message)
        return True

    async def _bye(self, conn: TarotSocket, bye: m.Bye) -> None:
        """``shutdown``: drop this connection and resume elsewhere; anything else ends it."""
        if bye.reason != "shutdown":
            self._end(Disconnected(f"the server said bye: {bye.reason}", bye.reason))
        with contextlib.suppress(*LOST):
            await conn.close()

    def _end(self, error: ClientError | None) -> None:
        """The stream ends: with ``error``, or (None) because the client was closed."""
        if self._ended is None and error is not None and not self._closing:
            self._ended = error
        self._connected.set()  # wake requests waiting for a connection: they raise
        self._fail_waiter(error or Disconnected("the client was closed"))
        self._inbox.put_nowait(None if self._closing else error)

    # ------------------------------------------------------------ resuming

    async def _connection_lost(self) -> bool:
        """Reconnect and resume; False when the client is done (closed or not resumable)."""
        self._connected.clear()
        if self._closing or self._ended is not None:
            return False  # closed, or a bye already ended it
        self._fail_waiter(ConnectionLost("the connection dropped; the client reconnects"))
        try:
            await self._reconnect()
        except ClientError as e:
            self._end(e)
            return False
        return True

    async def _reconnect(self) -> None:
        backoff = Backoff(self.reconnect_seconds, first=0.05, cap=1.0)
        while not self._closing:
            try:
                url = table_url(self.url, self.state.table_id if self.state else None)
                conn = await TarotSocket.open(url, self.codec, self.client_name, self.session)
                await self._rejoin(conn)
                self.reconnections += 1
                return
            except Refused as e:
                if e.code == "bad_session" and self.session is not None:
                    # Signed out meanwhile (elsewhere, or a new password): go on as a guest;
                    # the seat comes back by its own token.
                    log.info("the session was refused; reconnecting as a guest")
                    self.session = None
                    continue
                if e.code in _NOT_RESUMABLE:
                    raise Disconnected(f"cannot resume the seat: {e}", e.code) from e
                log.info("resume refused, retrying: %s", e)
            except LOST as e:
                log.info("reconnecting to %s: %s", self.url, e)
            try:
                await backoff.wait()
            except GaveUp as e:
                raise Disconnected(f"could not reconnect to {self.url}", "unreachable") from e
        raise Disconnected("the client was closed")

    async def _rejoin(self, conn: TarotSocket) -> None:
        """On a new connection: resume the seat (or watch again), then go on reading."""
        state = self.state
        request: BaseModel | None = None
        if state is not None and state.token is not None:
            request = m.Resume(token=state.token, last_seq=state.seq)
        elif state is not None:
            request = m.Watch(table_id=state.table_id)
        if request is not None:
            await conn.send(request)
            async with asyncio.timeout(self.timeout):
                reply = await conn.recv()
            if isinstance(reply, m.Error):
                await conn.close()
                raise Refused.of(reply)
            self._handle(reply)
        self._attach(conn)
