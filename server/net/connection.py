"""One WebSocket connection: decode, check, dispatch, answer.

A connection first says ``hello``; then it may list and create tables, take a seat,
watch, resume a seat with its token, and act. Every refused message gets an ``error``
with a stable code and changes nothing; only abuse (a flood that goes on) closes it.
"""

from __future__ import annotations

import asyncio
import logging
import time

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode

import engine
from protocol import Codec, ProtocolError, codec_for, request_id, version_for, versions
from protocol import models as m
from protocol.convert import action_of
from protocol.errors import ErrorCode
from server.clock import now_ms
from server.node.node import Node
from server.node.reviews import ConnectionReviews
from server.node.runtime import Build, TableRuntime
from server.table import seating
from server.table import transitions as tr
from server.table.data import TableData
from server.table.refusals import TableError, TableUnavailable
from server.table.seating import JoinRequest

from . import acks, chat_requests, feature_requests, queue_requests
from . import connection_state as cs
from .abuse import PINGS, abuse_closed
from .outbox import Outbox
from .rate_limit import RateLimit
from .signin import Signing

log = logging.getLogger("tarot.connection")
SERVER_NAME = "cardavia-tarot/0.1"


class Connection:
    def __init__(self, node: Node, ws: ServerConnection) -> None:
        self.node = node
        self.ws = ws
        self.codec: Codec = codec_for(ws.subprotocol)
        # The protocol version: the subprotocol's, else the hello's (``versions.py``).
        self.subprotocol_version = version_for(ws.subprotocol)
        self.version = self.subprotocol_version or versions.CURRENT_VERSION
        # The phase, table, seat and session: changed by connection_state's transitions only.
        self.state: cs.ConnectionState[TableRuntime] = cs.ConnectionState()
        self.signing = Signing(node)  # the account signed in on this connection, if any
        self.limit = RateLimit(node.settings.rate_per_second, node.settings.rate_burst)
        self.strikes = 0
        self.address = ""  # the client's (app.App sets it: the peer's, or its proxy's word)
        self.reviews = ConnectionReviews(node.reviews, self.send, lambda: self.player)
        self.created: set[str] = set()  # the tables this connection made (lobby limits)
        self.outbox = Outbox(ws, node.settings.send_buffer_bytes, self._too_slow)
        self.shows = chat_requests.shows_of(self)  # table.Subscriber's (chat: mutes, blocks)
        self._count_pings()

    @property
    def table(self) -> TableRuntime | None:
        return self.state.table

    @property
    def seat(self) -> int | None:
        return self.state.seat

    @property
    def session(self) -> int:
        return self.state.session

    @property
    def player(self) -> str:
        """Who this connection's player is, for the limits a player has whatever its
        connections (deal reviews): the signed-in account, else the address a guest
        connects from (what a guest cannot multiply)."""
        account_id = self.signing.account_id
        return f"address:{self.address}" if account_id is None else f"account:{account_id}"

    # Subscriber interface (see table.Subscriber)
    def send_frame(self, frame: str | bytes) -> None:
        # Never awaits: fan-out never blocks on one slow client; frames leave in the
        # order they were sent, those of one loop turn in one write (outbox.Outbox).
        self.outbox.put(frame)

    def _too_slow(self) -> None:
        """The client does not read what it is sent: drop it, free what waits for it."""
        why, abort = "it does not read (send buffer over its bound)", self.ws.transport.abort
        abuse_closed(self.address, self.node.metrics, why, abort, "slow_reader", at_once=True)

    def _count_pings(self) -> None:
        """WebSocket pings count against the rate limit like messages do.

        websockets answers each ping by itself, below this class; a client
        sending them without end (and not reading the pongs) would cost the
        node memory and CPU without ever meeting the limit.
        """
        protocol = self.ws.protocol
        receive = protocol.recv_frame

        def counted(frame: Frame) -> None:
            if frame.opcode is Opcode.PING and not self.limit.allow():
                self.strikes += 1
                if self.strikes >= self.node.settings.abuse_strikes:
                    abuse_closed(self.address, self.node.metrics, PINGS, self.ws.transport.abort)
                return  # dropped: no pong
            receive(frame)

        protocol.recv_frame = counted  # type: ignore[method-assign]

    def send(self, message: m.Model) -> None:
        self.send_frame(self.codec.encode(message))

    def error(
        self,
        code: ErrorCode,
        message: str,
        rule: str | None = None,
        reason: str | None = None,
        re: m.RequestId | None = None,
    ) -> None:
        self.node.metrics.refused.labels(code=code).inc()
        self.send(m.Error(code=code, message=message, rule=rule, reason=reason, re=re))

    async def serve(self) -> None:
        self.node.metrics.connections.inc()
        try:
            async for frame in self.ws:
                if not await self._frame(frame):
                    break
        except ConnectionClosed:
            pass
        finally:
            self.node.metrics.connections.dec()
            await self._gone()

    async def _close_reading(self, code: int, reason: str) -> None:
        """Close, dropping what the peer still sends until its closing frame comes.

        A flood fills the receive queue, which stops reading; the peer's closing
        frame would wait behind it and the close would last its whole time-out.
        The time-out still bounds a peer that never stops sending.
        """
        closing = asyncio.create_task(self.ws.close(code, reason))
        try:
            async for _ in self.ws:
                pass
        except ConnectionClosed:
            pass
        await closing

    async def _frame(self, frame: str | bytes) -> bool:
        """Handle one frame; False closes the connection (abuse)."""
        if self.limit.allow():
            if self.limit.tokens >= self.limit.burst / 2:
                self.strikes = 0  # calmed down: earlier strikes are forgiven
        else:
            self.strikes += 1
            if self.strikes >= self.node.settings.abuse_strikes:
                abuse_closed(self.address, self.node.metrics, "messages past the rate limit")
                self.send(m.Bye(reason="abuse", message="too many messages"))
                await self._close_reading(1008, "rate limit")
                return False
            self.error("rate_limited", "too many messages: slow down", re=self._peek_id(frame))
            return True
        re: m.RequestId | None = None
        try:
            message = self.codec.decode_client(frame, cs.admits(self))  # hello, version first
            re = message.id
            await self._dispatch(message)
        except ProtocolError as e:  # unreadable (its id read apart, if it can be), or refused
            self.error(e.code, e.message, re=e.request_id if re is None else re)
        except TableError as e:
            self.error(e.code, e.message, e.rule, e.reason, re=re)
        except ConnectionClosed:
            return False
        except Exception:  # the server never crashes on one message
            log.exception("internal error on a message")
            self.error("internal", "an unexpected server error; nothing changed", re=re)
        return True

    def _peek_id(self, frame: str | bytes) -> m.RequestId | None:
        """The ``id`` of a frame refused unread, so that its sender knows which one it was."""
        try:
            return request_id(self.codec.loads(frame))
        except ProtocolError:
            return None

    async def _dispatch(self, message: m.ClientMessage) -> None:  # noqa: C901 - one branch per type
        cs.check_accepts(self.state, message.type)  # the version: cs.admits, before the schema
        if isinstance(message, m.Hello):
            return await self._hello(message)
        re = message.id
        match message:
            case m.Ping():
                self.send(m.Pong(re=re))
            case m.SignUp():
                self.send(await self.signing.sign_up(message))
            case m.SignIn():
                self.send(await self.signing.sign_in(message))
            case m.SignOut():
                self.send(await self.signing.sign_out(re))
            case m.ChangePassword():
                self.send(await self.signing.change_password(message))
            case m.CreateTable(options=options, key=key):
                runtime = await self.node.lobby.create(options, self.address, self.created, key)
                invite = runtime.data.invite
                self.send(m.TableCreated(table=runtime.summary(), invite=invite, re=re))
            case m.Join():
                await self._join(message)
            case m.Watch(table_id=table_id, invite=invite):
                await self._watch(table_id, invite, re)
            case m.Resume(token=str(token), last_seq=last_seq):
                await self._resume(token, last_seq, re)
            case m.Resume(table_id=str(table_id), last_seq=last_seq):
                await self._reclaim(table_id, last_seq, re)
            case m.Start():
                runtime, _ = self._seated()
                await self._change(runtime, lambda d, s: tr.start(d, s, now_ms()), re)
            case m.Act(action=action):
                await self._act(action, re)
            case m.NextDeal():
                runtime, seat = self._seated()
                await self._change(runtime, lambda d, s: tr.ready(d, s, seat, now_ms()), re)
            case m.Leave():
                await self._leave(re)
            case m.ReviewDeal(deal_number=number):
                self.reviews.request(self.table, number, re)
            case m.ReviewStoredDeal(table_id=table_id, deal_number=number):
                self.reviews.request_stored(table_id, number, re)
            case _:
                await feature_requests.handle(self, message)
        if message.type in queue_requests.TO_A_TABLE:  # the queue is the lobby's
            await queue_requests.went_to_table(self)
        return None

    async def _change(self, runtime: TableRuntime, build: Build, re: m.RequestId | None) -> None:
        asked = acks.asking(self, re)
        await runtime.transact(build, asked=asked)
        acks.ack(self, runtime, re, asked)  # after the change's events (or in them: v2)

    async def _hello(self, hello: m.Hello) -> None:
        version = versions.check_version(hello.protocol, self.subprotocol_version)
        if hello.session is None:
            self.state, self.version = cs.on_hello(self.state), version
            self.send(m.Welcome(protocol=version, server=SERVER_NAME, re=hello.id))
            return
        account, seats = await self.signing.resume_session(hello.session)  # or refused
        self.state, self.version = cs.on_hello(self.state), version
        welcome = m.Welcome(
            protocol=version, server=SERVER_NAME, account=account, seats=seats, re=hello.id
        )
        self.send(welcome)

    def _seated(self) -> tuple[TableRuntime, int]:
        """The seat of a SEATED connection (check_accepts let only those through)."""
        runtime, seat = self.state.table, self.state.seat
        if runtime is None or seat is None:
            raise RuntimeError("a seated message on a connection that holds no seat")
        return runtime, seat

    async def _join(self, join: m.Join) -> None:
        runtime = await self.node.runtime(join.table_id)
        tr.check_invite(runtime.data, join.invite)
        await self.signing.check_guest_name(join.name)
        account = self.signing.account
        request = JoinRequest(
            # Signed in, the seat is taken as the account, under its name.
            name=join.name if account is None else account.name,
            now_ms=now_ms(),
            seat=join.seat,
            node=self.node.settings.node_id,
            account_id=self.signing.account_id,
            key=join.key,
        )
        change = await runtime.transact(lambda d, s: seating.join(d, s, request))
        await self._seated_by(runtime, change, join.id)

    async def _seated_by(
        self,
        runtime: TableRuntime,
        change: tr.Change,
        re: m.RequestId | None,
        last_seq: int | None = None,
    ) -> None:
        if change.seated is None:  # a join or a reclaim seats the connection or refuses
            raise RuntimeError("a join that seated no one")
        seat, token = change.seated
        self._sit(runtime, seat, change.data.seats[seat].session)
        self.send(m.Joined(table_id=runtime.table_id, seat=seat, token=token, re=re))
        await runtime.follow(self, last_seq)

    async def _reclaim(self, table_id: str, last_seq: int | None, re: m.RequestId | None) -> None:
        """The signed-in account's seat at ``table_id``, on this connection (a new token)."""
        account_id = self.signing.account_id
        if account_id is None:
            raise tr.TableRefused("not_signed_in", "resume by table_id needs a signed-in account")
        runtime = await self.node.runtime(table_id)
        node = self.node.settings.node_id
        change = await runtime.transact(lambda d, s: seating.reclaim(d, s, account_id, node))
        watched = self.state.table is runtime  # a spectator's numbers: a snapshot (section 9)
        await self._seated_by(runtime, change, re, None if watched else last_seq)

    async def _watch(self, table_id: str, invite: str | None, re: m.RequestId | None) -> None:
        runtime = await self.node.runtime(table_id)
        tr.check_watch(runtime.data, invite, now_ms())
        self.state = cs.on_watch(self.state, runtime)
        self.send(m.Watching(table_id=table_id, re=re))
        await runtime.follow(self)

    async def _resume(self, token: str, last_seq: int | None, re: m.RequestId | None) -> None:
        try:
            runtime = await self.node.runtime_of_token(token)
        except tr.TableRefused as e:
            if e.code == "unknown_table":
                raise tr.TableRefused("bad_token", "the seat token is unknown") from e
            raise
        # The seat's session grows: an older connection of the seat, on any node, is
        # told it was replaced (TableRuntime.apply_update). The token is checked in the
        # change: a leave committed meanwhile ended it.
        node = self.node.settings.node_id
        change = await runtime.transact(
            lambda d, s: tr.present(d, s, tr.seat_of_token(d, token), node)
        )
        seat = tr.seat_of_token(change.data, token)
        watched = self.state.table is runtime  # a spectator's numbers: a snapshot (section 9)
        self._sit(runtime, seat, change.data.seats[seat].session)
        self.send(m.Joined(table_id=runtime.table_id, seat=seat, token=token, re=re))
        await runtime.follow(self, None if watched else last_seq)

    def _sit(self, runtime: TableRuntime, seat: int, session: int) -> None:
        watched = self.state.table
        self.state = cs.on_sit(self.state, runtime, seat, session)
        if watched is not None:  # a spectator taking a seat stops watching
            watched.unsubscribe(self)

    def lost(self, table_id: str) -> None:
        """The table store lost this connection's table: say so; back to the lobby."""
        self.state = cs.on_drop(self.state)
        self.error("table_lost", f"table {table_id} was lost by the table store")

    def replaced(self) -> None:
        """Another connection resumed this seat: say why, and let go."""
        self.send(m.Bye(reason="replaced", message="this seat was resumed by another connection"))
        if self.table is not None:
            self.table.unsubscribe(self)
        self.state = cs.on_drop(self.state)
        asyncio.get_running_loop().create_task(self.ws.close(1000, "replaced"))

    async def _act(self, action: m.ActionModel, re: m.RequestId | None) -> None:
        runtime, seat = self._seated()
        start = time.perf_counter()
        engine_action = action_of(action, seat)
        asked = acks.asking(self, re)
        await runtime.transact(lambda d, s: tr.act(d, s, engine_action, now_ms()), self, asked)
        acks.ack(self, runtime, re, asked)
        self.node.metrics.actions.inc()
        self.node.metrics.action_latency.observe(time.perf_counter() - start)

    async def _leave(self, re: m.RequestId | None) -> None:
        cs.on_leave(self.state)  # refused here, before the commit, if it follows nothing
        runtime, seat, session = self.table, self.seat, self.session
        if runtime is None:
            raise RuntimeError("a leave on a connection that follows no table")
        if seat is not None:
            # Commit first: if the store refuses, the seat and its events stay ours.
            await runtime.transact(lambda d, s: tr.leave(d, s, seat, now_ms(), session))
        runtime.unsubscribe(self)
        # The table may have let go of it meanwhile (lost, replaced): the lobby either way.
        self.state = cs.on_drop(self.state)
        self.send(m.Left(table_id=runtime.table_id, re=re))

    async def _gone(self) -> None:
        """The connection closed: a seated player's grace period starts."""
        self.reviews.close()
        was = self.state
        self.state = cs.on_close(was)
        runtime, seat, session = was.table, was.seat, was.session
        if runtime is None:
            return
        runtime.unsubscribe(self)
        if seat is not None and not any(s.seat == seat for s in runtime.subscribers):
            at = now_ms()

            def build(d: TableData, s: engine.Deal | None) -> tr.Change:
                return tr.dropped(d, s, seat, at, session)

            try:
                await runtime.transact(build)
            except TableUnavailable as e:
                # Never lost: unmarked, the seat would wait for its player for good.
                log.warning("table %s: marking seat %s away later: %s", runtime.table_id, seat, e)
                runtime.commit_later(build)
            except TableError as e:
                log.warning("table %s: could not mark seat %s away: %s", runtime.table_id, seat, e)
