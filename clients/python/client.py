"""An asyncio client for a tarot server: lobby calls, a seat, its state, reconnection.

    client = await Client.connect("ws://127.0.0.1:8765/")          # msgpack; codec="json"
    created = await client.create_table(m.TableOptions(deals=1))
    await client.join(created.table.table_id, seat=0)
    await client.start()                                           # empty seats get AI
    async for message in client:                                   # events, your_turn, ...
        if isinstance(message, m.YourTurn):
            await client.play(message.legal.cards[0])

Theory of operation. One reader task reads every message, first applies it to
``client.state`` (the seat's picture of the table, always as of the latest
message read), then hands it to the request waiting for it, if any, and
queues table traffic (``event``, ``your_turn``, ``snapshot``, ``bye`` and
errors no request claimed) for ``async for``. Requests go one at a time;
each returns its reply or raises ``ServerError``. Every request carries an
``id`` and its answer (or ``error``) the same ``re``, so an answer is never
taken for another's; ``act``, ``start`` and ``next_deal`` return at their
``ack``, which the server sends after the change's events.

If the connection drops (or the server says ``bye`` with reason ``shutdown``),
the reader reconnects with backoff and resumes the seat with its token and
the last event seen; the server replays what was missed, or sends a
snapshot. A request that was waiting raises ``ConnectionLost``; the stream
goes on as if nothing happened. When the seat cannot be resumed (the token
is refused, the seat was taken by another connection, time ran out) the
stream ends with ``Disconnected``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from pydantic import BaseModel, ValidationError
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.uri import parse_uri

from protocol import ProtocolError, ServerMessage
from protocol import models as m

from .connection import CLIENT_NAME, CodecName, Connection
from .errors import BadURL, ClientError, ConnectionLost, Disconnected, ServerError, Unreachable
from .state import TableState

log = logging.getLogger("tarot.client")

Action = m.BidAction | m.DiscardAction | m.ChelemAction | m.PoigneeAction | m.PlayAction
Accept = Callable[[ServerMessage], bool]

# Messages that answer a request and are not table traffic.
_REPLIES = (m.Welcome, m.Tables, m.TableCreated, m.Joined, m.Watching, m.Left, m.Pong, m.Ack)
_NOT_RESUMABLE = frozenset({"bad_token", "unknown_table", "bad_invite", "table_full"})
_LOST = (ConnectionClosed, OSError, InvalidHandshake, TimeoutError)
RATE_LIMIT_RETRIES = 6


@dataclass(slots=True)
class _Waiter:
    accept: Accept
    future: asyncio.Future[ServerMessage]


class Client:
    """A connection to a server that survives drops; see the module docstring."""

    def __init__(
        self,
        url: str,
        codec: CodecName = "msgpack",
        *,
        reconnect_seconds: float = 60.0,
        timeout: float = 30.0,
        client_name: str = CLIENT_NAME,
    ) -> None:
        self.url = url
        self.codec = codec
        self.reconnect_seconds = reconnect_seconds
        self.timeout = timeout
        self.client_name = client_name
        self.state: TableState | None = None
        self.reconnections = 0
        self._conn: Connection | None = None
        self._inbox: asyncio.Queue[ServerMessage | ClientError | None] = asyncio.Queue()
        self._waiter: _Waiter | None = None
        self._lock = asyncio.Lock()
        self._connected = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self._closing = False
        self._ended: ClientError | None = None
        self._last_id = 0

    @classmethod
    async def connect(
        cls,
        url: str,
        codec: CodecName = "msgpack",
        *,
        reconnect_seconds: float = 60.0,
        timeout: float = 30.0,
        client_name: str = CLIENT_NAME,
    ) -> Client:
        """Open a connection and say hello.

        ``ServerError`` if the server refuses, ``Unreachable`` if there is none,
        ``BadURL`` if ``url`` is not a WebSocket URL (nothing is tried then).
        """
        client = cls(
            url,
            codec,
            reconnect_seconds=reconnect_seconds,
            timeout=timeout,
            client_name=client_name,
        )
        try:
            parse_uri(url)
        except (InvalidURI, ValueError) as e:  # a bad port or IPv6 host is a ValueError
            raise BadURL(f"{url!r} is not a ws:// or wss:// URL: {e}") from e
        try:
            connection = await Connection.open(url, codec, client_name)
        except _LOST as e:
            raise Unreachable(f"cannot reach {url}: {e or type(e).__name__}") from e
        client._attach(connection)
        client._reader = asyncio.get_running_loop().create_task(client._read())
        return client

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the connection for good (the seat's grace period starts on the server)."""
        already, self._closing = self._closing, True
        reader = self._reader
        if self._conn is not None and self._connected.is_set():
            with contextlib.suppress(*_LOST):
                await self._conn.close()
        elif reader is not None:
            reader.cancel()  # it was reconnecting
        if reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await reader
        if not already:
            self._end(None)

    # ------------------------------------------------------------ table traffic

    def __aiter__(self) -> Client:
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

    # ------------------------------------------------------------ lobby

    async def list_tables(self) -> list[m.TableSummary]:
        reply = await self._request(m.ListTables(), _is(m.Tables))
        assert isinstance(reply, m.Tables)
        return reply.tables

    async def create_table(self, options: m.TableOptions | None = None) -> m.TableCreated:
        reply = await self._request(
            m.CreateTable(options=options or m.TableOptions()), _is(m.TableCreated)
        )
        assert isinstance(reply, m.TableCreated)
        return reply

    async def join(
        self, table_id: str, seat: int | None = None, name: str = "", invite: str | None = None
    ) -> TableState:
        """Take a seat (any free one when ``seat`` is None); returns the seat's state."""
        join = m.Join(table_id=table_id, seat=seat, name=name, invite=invite)
        await self._request(join, _is(m.Snapshot))
        assert self.state is not None
        return self.state

    async def watch(self, table_id: str, invite: str | None = None) -> TableState:
        """Follow a table as a spectator (public events only)."""
        await self._request(m.Watch(table_id=table_id, invite=invite), _is(m.Snapshot))
        assert self.state is not None
        return self.state

    async def resume(self, token: str) -> TableState:
        """Come back to a seat held by a token (from an earlier ``join``), with a snapshot."""
        await self._request(m.Resume(token=token), _is(m.Snapshot))
        assert self.state is not None
        return self.state

    async def start(self) -> None:
        """Start the table now: empty seats are filled with AI."""
        await self._request(m.Start(), _is(m.Ack))

    async def next_deal(self) -> None:
        """Say this seat is ready for the next deal."""
        await self._request(m.NextDeal(), _is(m.Ack))

    async def leave(self) -> None:
        """Leave the table: the seat empties (before the start) or an AI takes it."""
        await self._request(m.Leave(), _is(m.Left))
        self.state = None

    async def ping(self) -> None:
        await self._request(m.Ping(), _is(m.Pong))

    # ------------------------------------------------------------ actions

    async def act(self, action: Action) -> None:
        """Take an action; returns once the table shows it, ``ServerError`` if refused."""
        await self._request(m.Act(action=action), _is(m.Ack))

    async def bid(self, contract: m.ContractCode) -> None:
        await self.act(m.BidAction(contract=contract))

    async def discard(self, cards: list[str]) -> None:
        await self.act(m.DiscardAction(cards=cards))

    async def chelem(self, announce: bool) -> None:
        await self.act(m.ChelemAction(announce=announce))

    async def poignee(self, cards: list[str]) -> None:
        await self.act(m.PoigneeAction(cards=cards))

    async def play(self, card: str) -> None:
        await self.act(m.PlayAction(card=card))

    # ------------------------------------------------------------ requests

    async def _request(self, message: m.Request, accept: Accept) -> ServerMessage:
        """Send ``message``; the reply ``accept`` takes, or ``ServerError``.

        A message refused as ``rate_limited`` changed nothing: it is sent again
        after a pause.
        """
        for attempt in range(RATE_LIMIT_RETRIES):
            try:
                return await self._exchange(message, accept)
            except ServerError as e:
                if e.code != "rate_limited":
                    raise
                await asyncio.sleep(0.1 * 2**attempt)
        return await self._exchange(message, accept)

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
            raise ServerError.of(reply)
        return reply

    async def _ready(self) -> Connection:
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

    def _attach(self, conn: Connection) -> None:
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
            except _LOST:
                if not await self._connection_lost():
                    return
                continue
            try:
                self._handle(message)
            except Exception as e:  # a bug here must end the stream, not hang it
                log.exception("the client failed on a %s message", message.type)
                self._end(ClientError(f"the client failed on a {message.type} message: {e}"))
                return
            if isinstance(message, m.Bye):
                await self._bye(conn, message)
            elif self.state is not None and self.state.behind:
                log.warning("events %d+ are missing: resuming to get them", self.state.seq + 1)
                with contextlib.suppress(*_LOST):
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
            case m.Snapshot() | m.Event() | m.YourTurn() if state is not None:
                if message.table_id == state.table_id:
                    return state.apply(message)
        return True

    async def _bye(self, conn: Connection, bye: m.Bye) -> None:
        """``shutdown``: drop this connection and resume elsewhere; anything else ends it."""
        if bye.reason != "shutdown":
            self._end(Disconnected(f"the server said bye: {bye.reason}", bye.reason))
        with contextlib.suppress(*_LOST):
            await conn.close()

    def _end(self, error: ClientError | None) -> None:
        """The stream ends: with ``error``, or (None) because the client was closed."""
        if self._ended is None and error is not None and not self._closing:
            self._ended = error
        self._connected.set()  # wake requests waiting for a connection: they raise
        self._fail_waiter(error or Disconnected("the client was closed"))
        self._inbox.put_nowait(None if self._closing else error)

    async def _connection_lost(self) -> bool:
        """Reconnect and resume; False when the client is done (closed or not resumable)."""
        self._connected.clear()
        if self._closing:
            return False
        if self._ended is not None:
            return False  # a bye already ended it
        self._fail_waiter(ConnectionLost("the connection dropped; the client reconnects"))
        try:
            await self._reconnect()
        except ClientError as e:
            self._end(e)
            return False
        return True

    async def _reconnect(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.reconnect_seconds
        delay = 0.05
        while not self._closing:
            try:
                conn = await Connection.open(self.url, self.codec, self.client_name)
                await self._rejoin(conn)
                self.reconnections += 1
                return
            except ServerError as e:
                if e.code in _NOT_RESUMABLE:
                    raise Disconnected(f"cannot resume the seat: {e}", e.code) from e
                log.info("resume refused, retrying: %s", e)
            except _LOST as e:
                log.info("reconnecting to %s: %s", self.url, e)
            if loop.time() + delay > deadline:
                raise Disconnected(f"could not reconnect to {self.url}", "unreachable")
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)
        raise Disconnected("the client was closed")

    async def _rejoin(self, conn: Connection) -> None:
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
                raise ServerError.of(reply)
            self._handle(reply)
        self._attach(conn)


def _is(kind: type[Any]) -> Accept:
    return lambda message: isinstance(message, kind)
