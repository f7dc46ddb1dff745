"""An asyncio client for a tarot server: lobby calls, a seat, its state, reconnection.

    client = await Client.connect("ws://127.0.0.1:8765/")          # msgpack; codec="json"
    created = await client.create_table(m.TableOptions(deals=1))
    await client.join(created.table.table_id, seat=0)
    await client.start()                                           # empty seats get AI
    async for message in client:                                   # events, your_turn, ...
        if isinstance(message, m.YourTurn):
            await client.play(message.legal.cards[0])

Each call sends one request and returns its reply (``Refused`` if
refused); ``act``, ``start`` and ``next_deal`` return at their ``ack``, which
the server sends after the change's events. How requests are answered,
retried and resumed across drops is ``link.Link``'s part.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import TracebackType
from typing import Any

from websockets.exceptions import InvalidURI
from websockets.uri import parse_uri

from protocol import models as m

from .connection import CLIENT_NAME, CodecName, TarotSocket
from .errors import BadURL, ConnectionLost, QueueEnded, Refused, Unreachable
from .link import LOST, Accept, Link
from .routing import table_url
from .state import TableState

WireAction = m.BidAction | m.DiscardAction | m.ChelemAction | m.PoigneeAction | m.PlayAction

log = logging.getLogger("tarot.client")
READY_TRIES = 5  # ``next_deal`` said again after as many lost connections at most


class Client(Link):
    """A connection to a server that survives drops; see the module docstring."""

    def __init__(
        self,
        url: str,
        codec: CodecName = "msgpack",
        *,
        reconnect_seconds: float = 60.0,
        retry_seconds: float = 60.0,
        timeout: float = 30.0,
        client_name: str = CLIENT_NAME,
    ) -> None:
        super().__init__(
            url,
            codec,
            reconnect_seconds=reconnect_seconds,
            retry_seconds=retry_seconds,
            timeout=timeout,
            client_name=client_name,
        )
        self.account: m.AccountInfo | None = None  # who this connection is signed in as
        self.held_seats: list[m.HeldSeat] = []  # the account's seats, to ``resume``

    @classmethod
    async def connect(
        cls,
        url: str,
        codec: CodecName = "msgpack",
        *,
        reconnect_seconds: float = 60.0,
        retry_seconds: float = 60.0,
        timeout: float = 30.0,
        client_name: str = CLIENT_NAME,
        session: str | None = None,
        table: str | None = None,
    ) -> Client:
        """Open a connection and say hello, signed in with ``session`` (the token
        ``sign_in`` or ``sign_up`` returned) if given: ``client.account`` is then the
        account, its held seats are in ``client.held_seats``.

        ``Refused`` if the server refuses (``bad_session``: the session was signed
        out or has expired), ``Unreachable`` if there is none,
        ``BadURL`` if ``url`` is not a WebSocket URL (nothing is tried then).
        ``table``: the table this client goes to, named in the URL (``/t/TABLE``) so
        that a load balancer sends it to the node of the table's other players; after
        a drop the client reconnects with the table it is at in the URL.
        ``reconnect_seconds`` bounds each reconnection after a drop,
        ``retry_seconds`` the retries of a request refused as ``unavailable``
        or ``rate_limited``.
        """
        client = cls(
            url,
            codec,
            reconnect_seconds=reconnect_seconds,
            retry_seconds=retry_seconds,
            timeout=timeout,
            client_name=client_name,
        )
        try:
            parse_uri(url)
        except (InvalidURI, ValueError) as e:  # a bad port or IPv6 host is a ValueError
            raise BadURL(f"{url!r} is not a ws:// or wss:// URL: {e}") from e
        try:
            connection = await TarotSocket.open(table_url(url, table), codec, client_name, session)
        except LOST as e:
            raise Unreachable(f"cannot reach {url}: {e or type(e).__name__}") from e
        client.session = session
        client.account = connection.welcome.account
        client.held_seats = connection.welcome.seats or []
        client._begin(connection)
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

    # ------------------------------------------------------------ accounts

    async def sign_up(self, name: str, password: str) -> str:
        """A new account, this connection signed in to it: its session token (give it to
        ``Client.connect(session=...)`` later to come back as the account)."""
        return await self._signed_in(m.SignUp(name=name, password=password))

    async def sign_in(self, name: str, password: str) -> str:
        """Sign in to an account (its name in any case): a new session token."""
        return await self._signed_in(m.SignIn(name=name, password=password))

    async def sign_out(self) -> None:
        """End this session (its token no longer signs in); the connection is a guest."""
        await self._request(m.SignOut(), _is(m.SignedOut))
        self.session, self.account, self.held_seats = None, None, []

    async def change_password(self, old_password: str, new_password: str) -> None:
        """A new password: this session stays, the account's other sessions are ended."""
        request = m.ChangePassword(old_password=old_password, new_password=new_password)
        await self._request(request, _is(m.PasswordChanged))

    async def _signed_in(self, request: m.SignUp | m.SignIn) -> str:
        reply = await self._request(request, _is(m.SignedInAs))
        assert isinstance(reply, m.SignedInAs)
        # Said in every later hello, so a reconnection is still the account.
        self.session, self.account, self.held_seats = reply.token, reply.account, reply.seats
        return reply.token

    # ------------------------------------------------------------ lobby

    async def list_tables(
        self, *, open_seats: bool = False, ai_level: m.AiLevel | None = None, page: int = 50
    ) -> list[m.TableSummary]:
        """Every listed table (``open_seats``: only those with a seat to take now), asked
        for ``page`` at a time (the lobby is paged: PROTOCOL.md, ``list_tables``)."""
        tables: list[m.TableSummary] = []
        after: str | None = None
        while True:
            reply = await self.tables_page(open_seats, ai_level, page, after)
            tables += reply.tables
            if reply.next is None:
                return tables
            after = reply.next

    async def tables_page(
        self,
        open_seats: bool = False,
        ai_level: m.AiLevel | None = None,
        limit: int = 50,
        after: str | None = None,
    ) -> m.Tables:
        """One page of the lobby; ``after`` is the previous page's ``next``."""
        request = m.ListTables(open_seats=open_seats, ai_level=ai_level, limit=limit, after=after)
        reply = await self._request(request, _is(m.Tables))
        assert isinstance(reply, m.Tables)
        return reply

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

    async def resume(self, token: str | None = None, *, table_id: str | None = None) -> TableState:
        """Come back to a seat held by a token (from an earlier ``join``), or, signed in,
        to the account's seat at ``table_id`` (``held_seats``), with a snapshot."""
        await self._request(m.Resume(token=token, table_id=table_id), _is(m.Snapshot))
        assert self.state is not None
        return self.state

    async def start(self) -> None:
        """Start the table now: empty seats are filled with AI."""
        await self._request(m.Start(), _is(m.Ack))

    async def next_deal(self) -> None:
        """Say this seat is ready for the next deal.

        Said again on the resumed seat when the connection drops before the answer, or the
        server cannot say whether it was kept (``outcome_unknown``): it may have been lost,
        a resumed seat is offered its turns again but not told that the table waits for it
        between deals, and one more is ignored. (Lost with a killed node, the table waited
        its whole next_deal_seconds for the seat.)
        """
        for tries in range(1, READY_TRIES + 1):
            try:
                await self._request(m.NextDeal(), _is(m.Ack))
                return
            except ConnectionLost:
                if tries == READY_TRIES:
                    raise
            except Refused as e:
                if e.code != "outcome_unknown" or tries == READY_TRIES:
                    raise
            log.info("next_deal may not have reached the table: saying it again")

    async def leave(self) -> None:
        """Leave the table: the seat empties (before the start) or an AI takes it."""
        await self._request(m.Leave(), _is(m.Left))
        self.state = None

    # ------------------------------------------------------------ quick play (protocol 2)

    async def queue(
        self,
        mode: m.QueueMode = "casual",
        deals: int = 1,
        name: str = "",
        *,
        on_status: Callable[[m.QueueStatus | m.MatchFound], None] | None = None,
    ) -> TableState:
        """Quick play: queue, confirm the ready check, return the seat's state once seated.

        ``on_status`` sees each ``queue_status`` and ``match_found`` (to show the wait).
        ``QueueEnded`` if the search ends without a seat (``reason`` says why).
        """
        status = await self._request(m.Queue(mode=mode, deals=deals, name=name), _is(m.QueueStatus))
        assert isinstance(status, m.QueueStatus)
        if on_status is not None:
            on_status(status)
        while True:
            message = await self.next_message()
            if isinstance(message, m.QueueStatus | m.MatchFound) and on_status is not None:
                on_status(message)
            if isinstance(message, m.MatchFound):
                await self.ready(message.match_id)
            elif isinstance(message, m.QueueStatus) and message.state != "searching":
                if message.reason != "seated":
                    raise QueueEnded(message.reason or message.state)
            elif isinstance(message, m.Snapshot) and self.state is not None:
                return self.state

    async def ready(self, match_id: str) -> None:
        """Confirm a ready check (``match_found``) before its deadline."""
        await self._request(m.Ready(match_id=match_id), _is(m.QueueStatus))

    async def cancel_queue(self) -> None:
        await self._request(m.CancelQueue(), _is(m.QueueStatus))

    async def play_now(self, deals: int = 1, name: str = "") -> TableState:
        """A table now against three AI (leaving the queue); the seat's state."""
        await self._request(m.PlayNow(deals=deals, name=name), _is(m.Snapshot))
        assert self.state is not None
        return self.state

    async def ping(self) -> None:
        await self._request(m.Ping(), _is(m.Pong))

    # ------------------------------------------------------------ actions

    async def act(self, action: WireAction) -> None:
        """Take an action; returns once the table shows it, ``Refused`` if refused."""
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

    # ------------------------------------------------------------ chat and rematch

    async def say(self, preset: m.PresetCode | None = None, text: str | None = None) -> None:
        """Say a preset phrase (by its code, ``m.PRESET_CODES``) or, outside a deal, a text at
        the table followed; the message comes back as a ``chat`` event (``state.chat``)."""
        await self._request(m.Chat(preset=preset, text=text), _is(m.Ack))

    async def mute(self, name: str) -> list[str]:
        """Hide this player's chat (signed in: on every connection of the account, kept
        until ``unmute``; a guest: on this connection); the names muted now."""
        reply = await self._request(m.Mute(name=name), _is(m.Muted))
        assert isinstance(reply, m.Muted)
        return reply.names

    async def unmute(self, name: str) -> list[str]:
        reply = await self._request(m.Unmute(name=name), _is(m.Muted))
        assert isinstance(reply, m.Muted)
        return reply.names

    async def block(self, name: str) -> str:
        """Signed in: block this account (kept); its name as the server knows it."""
        reply = await self._request(m.Block(name=name), _is(m.Blocked))
        assert isinstance(reply, m.Blocked)
        return reply.name

    async def report(self, seq: int, reason: str = "") -> int:
        """Report the chat message of event ``seq`` at this table; the report's id."""
        reply = await self._request(m.Report(seq=seq, reason=reason), _is(m.Reported))
        assert isinstance(reply, m.Reported)
        return reply.report_id

    async def rematch(self, accept: bool = True) -> TableState | None:
        """At a finished table: play again with the same humans (the new table's state, this
        connection now seated there), or decline (None)."""
        if not accept:
            await self._request(m.Rematch(accept=False), _is(m.Ack))
            return None
        await self._request(m.Rematch(accept=True), _is(m.Snapshot))
        assert self.state is not None
        return self.state


def _is(kind: type[Any]) -> Accept:
    return lambda message: isinstance(message, kind)
