"""A connection's quick-play requests (protocol section 16): queue, cancel, ready, play now;
and, after the lobby's ``tables``, how many search (``searching``, version 2).

``handle`` is called from ``Connection._dispatch`` for the four types; the queue
itself is the node's (``server/node/quickplay.py``). The queue is the lobby's: a queued
connection that goes to a table (``TO_A_TABLE``) leaves it (``went_to_table``). A
connection is one queuer: a guest is a player of its own (``guest:...``), an account one
player on every connection and node (it queues once). A signed-in player queues at its
rating (the history's; a new account's, 1500, without one); a guest at 1500, casual only.
"""

from __future__ import annotations

import logging
import secrets
import weakref

from protocol import models as m
from server.clock import now_ms
from server.node.quickplay import QuickPlay
from server.queue.seats import Sitter
from server.queue.tickets import Ticket
from server.table import transitions as tr

from . import connection_state as cs
from .requester import Requester

log = logging.getLogger("tarot.quickplay")
START_RATING = 1500.0  # the history's START: a new account's, and every guest's

QueueRequest = m.Queue | m.CancelQueue | m.Ready | m.PlayNow


class ConnectionQueuer:
    """A connection as the queue sees it (``quickplay.Queuer``)."""

    def __init__(self, connection: Requester) -> None:
        self._connection = weakref.ref(connection)
        self.guest = f"guest:{secrets.token_hex(8)}"

    @property
    def connection(self) -> Requester | None:
        return self._connection()

    def send(self, message: m.Model) -> None:
        connection = self.connection
        if connection is not None and not self.closed:
            connection.send(message)

    @property
    def closed(self) -> bool:
        connection = self.connection
        return connection is None or connection.state.phase is cs.ConnectionPhase.CLOSED

    async def take_seat(self, token: str) -> None:
        """Sit with the seat's token, as a ``resume`` does: ``joined``, then the events.
        From the lobby only, as its ``ready`` was: a connection that went to a table
        meanwhile (a watch too, which a ``resume`` would end) is refused, and the seat
        is the AI's (``QuickPlay._take``)."""
        connection = self.connection
        if connection is None or self.closed:
            raise tr.TableRefused("not_seated", "the connection closed before its seat")
        cs.check_accepts(connection.state, "ready")
        await connection._resume(token, None, None)


_queuers: weakref.WeakKeyDictionary[Requester, ConnectionQueuer] = weakref.WeakKeyDictionary()


def queuer_of(connection: Requester) -> ConnectionQueuer:
    found = _queuers.get(connection)
    if found is None:
        found = _queuers[connection] = ConnectionQueuer(connection)
    return found


async def handle(connection: Requester, message: QueueRequest) -> None:
    quickplay: QuickPlay = connection.node.quickplay
    if isinstance(message, m.Queue | m.PlayNow):
        connection.node.moderation.check_create()  # a maintenance: no new tables
    queuer = queuer_of(connection)
    match message:
        case m.Queue():
            ticket = await _ticket(connection, queuer, message)
            await quickplay.queue(queuer, ticket, message.id)
        case m.CancelQueue():
            await quickplay.cancel(queuer, message.id)
        case m.Ready(match_id=match_id):
            await quickplay.confirm(queuer, match_id, message.id)
        case m.PlayNow(deals=deals, name=name):
            await connection.signing.check_guest_name(name)
            sitter = Sitter(
                _name(connection, name), connection.signing.account_id, _node(connection)
            )
            await quickplay.play_now(queuer, sitter, deals)


# The requests that take a connection from the lobby to a table (PROTOCOL.md section 16).
TO_A_TABLE = frozenset({"join", "watch", "resume", "duplicate_play"})


async def went_to_table(connection: Requester) -> None:
    """A request of ``TO_A_TABLE`` succeeded: a queued connection leaves the queue
    (``queue_status`` ``idle``, ``reason`` ``other_table``); a refused one changed nothing."""
    queuer = _queuers.get(connection)
    if queuer is not None and connection.state.table is not None:
        await connection.node.quickplay.withdraw(queuer)


async def searching(connection: Requester, re: m.RequestId | None) -> None:
    """After ``tables`` (and ``online``), to a version 2 connection: how many search for
    quick play, on every node: every lobby sees it, not only those searching."""
    if connection.version >= 2:
        count = await connection.node.quickplay.searching_count()
        connection.send(m.Searching(count=count, re=re))


def _node(connection: Requester) -> str:
    return connection.node.settings.node_id


def _name(connection: Requester, name: str) -> str:
    account = connection.signing.account
    return name if account is None else account.name


async def _ticket(connection: Requester, queuer: ConnectionQueuer, queue: m.Queue) -> Ticket:
    account_id = connection.signing.account_id
    if queue.mode == "rated" and account_id is None:
        raise tr.TableRefused(
            "rated_needs_account", "rated quick play needs an account: sign in, or play casual"
        )
    await connection.signing.check_guest_name(queue.name)
    return Ticket(
        ticket_id=secrets.token_hex(8),
        player=queuer.guest if account_id is None else f"account:{account_id}",
        name=_name(connection, queue.name),
        account_id=account_id,
        rating=await _rating(connection, account_id),
        mode=queue.mode,
        deals=queue.deals,
        since_ms=now_ms(),
        node=_node(connection),
    )


async def _rating(connection: Requester, account_id: int | None) -> float:
    """The account's rating in the history; ``START_RATING`` for a guest, or without one."""
    archive = connection.node.archive
    if account_id is None or archive is None or archive.engine is None:
        return START_RATING
    from server.history.ratings import rating_of  # SQLAlchemy only where the history is kept

    try:
        return (await rating_of(archive.engine, account_id)).value
    except Exception as e:  # play never waits for the history
        log.warning("quick play: no rating for account %s: %s", account_id, e)
        return START_RATING
