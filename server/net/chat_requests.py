"""A connection's chat requests: ``chat``, ``mute``, ``unmute``, ``block``, ``report``
(docs/PROTOCOL.md, section 17); the rules are ``server/table/chat_rules.py``'s.

``Social`` is one connection's part: its sender limits (rate, repeats). The
names it muted and the accounts hidden from it (those it blocked or that
blocked it) are its ``Signing``'s: a guest's mutes last as long as the
connection; a signed-in player's are kept in the history database and
shared by the account's connections (signin.py). Its
``shows`` is the follower's say in the delivery core (``Feed.shows``): a chat
event it must not see is sent as ``hidden``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast
from weakref import WeakKeyDictionary

from protocol import models as m
from protocol.errors import error_code
from protocol.frames import wire_event
from server.clock import now_ms
from server.table.chat_rules import (
    SELECTIVE_KINDS,
    ChatPolicy,
    Sender,
    SenderLimits,
    SentChat,
    check_mute_room,
    reportable,
    said,
    shown_to,
)
from server.table.data import StoredEvent
from server.table.refusals import AccountRefused, TableRefused
from server.table.stored_events import name_of

from . import acks, rematch_requests
from .requester import Requester
from .signin import blocked_here

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

    from server.node.runtime import TableRuntime
    from server.settings import Settings


log = logging.getLogger("tarot.chat")
CONTEXT_MESSAGES = 10  # the messages before a reported one kept with it
CONTEXT_EVENTS = 500  # how far back in the table's log they are looked for

SocialMessage = m.Chat | m.Mute | m.Unmute | m.Block | m.Report | m.Rematch


def policy_of(settings: Settings) -> ChatPolicy:
    return ChatPolicy(
        per_window=settings.chat_per_window,
        window_ms=int(settings.chat_window_seconds * 1000),
        guest_deals=settings.chat_guest_deals,
        mutes_max=settings.chat_mutes_max,
    )


class Social:
    """One connection's chat state: its limits (the names it muted and the accounts hidden
    from it are its ``signing``'s: an account's are read at sign-in)."""

    def __init__(self, conn: Requester) -> None:
        self.conn = conn
        self.policy = policy = policy_of(conn.node.settings)
        self.limits = SenderLimits(policy)
        self.sent = SentChat()  # which chat messages it was shown: ``report`` asks

    def shows(self, event: StoredEvent) -> bool:
        """Whether the connection is shown ``event`` (every kind but the chat's: yes). Asked
        as the event is sent to it; a chat message's answer is remembered for ``report``."""
        kind = name_of(event.event)
        if kind not in SELECTIVE_KINDS:
            return True  # most events: asked of every follower, so asked first (issue 28)
        conn = self.conn
        signing = conn.signing
        shown = shown_to(event.event, conn.seat, conn.version, signing.muted, signing.hidden)
        table = conn.table
        if kind == "chat" and table is not None:
            self.sent.sent(table.table_id, event.seq, shown)
        return shown


_SOCIAL: WeakKeyDictionary[Any, Social] = WeakKeyDictionary()


def shows_of(conn: Requester) -> Callable[[StoredEvent], bool]:
    """The connection's ``shows`` (table.Subscriber's, the delivery core's ``Feed.shows``);
    its chat state is made here and lives as long as the connection."""
    social = _SOCIAL[conn] = Social(conn)
    return social.shows


def social_of(conn: Requester) -> Social:
    return _SOCIAL[conn]


def _engine(conn: Requester) -> AsyncEngine | None:
    archive = conn.node.archive
    return None if archive is None else archive.engine


def _followed(conn: Requester) -> TableRuntime:
    runtime = conn.table
    if runtime is None:
        raise TableRefused("not_seated", "chat: this connection follows no table")
    return runtime


async def handle(conn: Requester, message: SocialMessage) -> None:
    """One chat request of ``conn`` (feature_requests.py's dispatch calls this), or a rematch."""
    match message:
        case m.Chat():
            await _chat(conn, message)
        case m.Mute(name=name) | m.Unmute(name=name):
            muted = await _mute(conn, name.casefold(), isinstance(message, m.Mute))
            conn.send(m.Muted(names=sorted(muted), re=message.id))
        case m.Block():
            await _block(conn, message)
        case m.Report():
            await _report(conn, message)
        case m.Rematch():
            await rematch_requests.answer(conn, message)


async def _chat(conn: Requester, chat: m.Chat) -> None:
    runtime = _followed(conn)
    seat = conn.seat
    account = conn.signing.account
    name = runtime.data.seats[seat].name if seat is not None else ""
    if account is not None:
        name = account.name
    sender = Sender(seat, name, conn.signing.account_id)
    policy = social_of(conn).policy
    said(runtime.data, runtime.state, sender, chat, policy)  # refused here before it counts
    social_of(conn).limits.check(chat.preset or chat.text or "", now_ms())
    await runtime.transact(lambda d, s: said(d, s, sender, chat, policy))
    acks.ack(cast("acks.Asker", conn), runtime, chat.id, None)  # an ack, after its event


async def _asked(work: Any) -> Any:
    from server.history import HistoryError

    try:
        return await work
    except HistoryError as e:
        raise AccountRefused(error_code(e.code), e.message) from e


def _history(conn: Requester) -> AsyncEngine:
    engine = _engine(conn)
    if engine is None:
        raise AccountRefused(
            "accounts_unavailable", "this server keeps no accounts (it has no history database)"
        )
    return engine


async def _block(conn: Requester, message: m.Block) -> None:
    from server.history import block

    account_id = conn.signing.account_id
    if account_id is None:
        raise AccountRefused("not_signed_in", "block: sign in first (blocks are kept)")
    limit = social_of(conn).policy.mutes_max
    blocked_id, name = await _asked(block(_history(conn), account_id, message.name, limit))
    conn.signing.hidden.add(blocked_id)
    blocked_here(conn.node, account_id, blocked_id)  # both accounts' connections on this node
    conn.send(m.Blocked(name=name, re=message.id))


async def _mute(conn: Requester, key: str, on: bool) -> set[str]:
    """Mute (``on``) or unmute the case-folded name ``key``: for a signed-in player, kept
    in the history and applied on every connection of the account; for a guest, on this
    connection while it lasts. The names muted now."""
    account_id, engine, muted = conn.signing.account_id, _engine(conn), conn.signing.muted
    limit = social_of(conn).policy.mutes_max
    if on:
        check_mute_room(muted, key, social_of(conn).policy)
    if account_id is not None and engine is not None:
        from server.history import mute, unmute

        work = mute(engine, account_id, [key], limit) if on else unmute(engine, account_id, key)
        await _asked(work)
    if on:
        muted.add(key)
    else:
        muted.discard(key)
    return muted


async def _report(conn: Requester, message: m.Report) -> None:
    from server.history import ChatReport, store_report

    runtime = _followed(conn)
    engine = _history(conn)
    events = await runtime.services.store.events_since(
        runtime.table_id, max(0, message.seq - CONTEXT_EVENTS)
    )
    chats = [
        e
        for e in events or []
        # The context: those its seat and version may read, whatever it muted or blocked.
        if e.seq <= message.seq
        and name_of(e.event) == "chat"
        and shown_to(e.event, conn.seat, conn.version)
    ]
    if not chats or chats[-1].seq != message.seq:
        raise TableRefused(
            "no_such_message", f"no chat message numbered {message.seq} at this table"
        )
    signing = conn.signing
    was_shown = social_of(conn).sent.was_shown(runtime.table_id, message.seq)
    if not reportable(
        chats[-1].event, conn.seat, conn.version, signing.muted, signing.hidden, was_shown
    ):
        raise TableRefused(
            "no_such_message",
            f"chat message {message.seq} was sent to you as hidden (muted or blocked):"
            " only a message you were shown can be reported",
        )
    account = conn.signing.account
    report = ChatReport(
        table_id=runtime.table_id,
        seq=message.seq,
        reporter_id=None if account is None else account.id,
        reporter=conn.player if account is None else account.name,
        message=dict(wire_event(chats[-1].event)),
        context=[{"seq": e.seq, **wire_event(e.event)} for e in chats[-1 - CONTEXT_MESSAGES : -1]],
        reason=message.reason,
    )
    report_id = await _asked(store_report(engine, report))
    conn.send(m.Reported(report_id=report_id, re=message.id))
