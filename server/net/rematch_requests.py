"""A connection's ``rematch`` (docs/PROTOCOL.md, section 17); the rules are
``server/table/rematch.py``'s.

The first answer makes the new table (``lobby.create`` with the rematch's key:
one table whichever node asks). A seat that accepts is seated at the new table
in the same seat, under the same name and account, and this connection moves
there (``joined``, then its events); one that declines gets an ``ack``. The
answer that completes them starts the new table: the AI takes the seats left.

Two tables, no transaction across them: an accept takes its seat at the new
table first, then is written to the old one; if the old table refuses it (the
offer closed meanwhile), the seat is given back, so a refused answer leaves
both tables as they were: the seat that fills the new table does not start it
until the old table took the accept (``hold_start``), and one a player there
started meanwhile goes to the AI.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, cast

from protocol import models as m
from server.clock import now_ms
from server.node.rematch_timers import start_rematch_table
from server.table import rematch, seating
from server.table import transitions as tr
from server.table.data import TableData
from server.table.refusals import TableError
from server.table.seating import JoinRequest

from . import acks
from . import connection_state as cs
from .requester import Requester

if TYPE_CHECKING:
    from server.node.runtime import Subscriber, TableRuntime

log = logging.getLogger("tarot.table")


async def answer(conn: Requester, message: m.Rematch) -> None:
    runtime, seat = conn._seated()
    rematch.check_answer(runtime.data, seat)  # the commit checks again, on the stored table
    new_runtime = await conn.node.runtime(await _new_table(conn, runtime.data))
    # An accept sits down at the new table before the old one is told: a seat there may
    # be gone (a player started it), and the old table must never say it was taken.
    joined = await _sit_down(conn, new_runtime, runtime.data, seat) if message.accept else None
    closes = now_ms() + round(conn.node.settings.rematch_seconds * 1000)
    new_id = new_runtime.table_id
    try:
        change = await runtime.transact(
            lambda d, s: rematch.answer(d, s, seat, message.accept, new_id, closes)
        )
    except TableError as e:
        if joined is not None and e.code != "outcome_unknown":  # refused: nothing written
            await _stand_up(new_runtime, joined, seat)
        raise
    if joined is not None:
        conn.state = cs.on_leave(conn.state)  # the finished table is left as it is
        runtime.unsubscribe(cast("Subscriber", conn))  # it is one (connection.Connection)
        await conn._seated_by(new_runtime, joined, message.id)
    else:
        acks.ack(cast("acks.Asker", conn), runtime, message.id, None)
    if rematch.starts(change.data):
        await start_rematch_table(new_runtime)
    elif joined is not None:  # this accept filled the new table: it starts now it holds
        await new_runtime.transact(lambda d, s: seating.start_if_full(d, s, now_ms()))


async def _new_table(conn: Requester, data: TableData) -> str:
    """The rematch's table: named by the offer, else made now (one whichever node asks)."""
    if data.rematch is not None:
        return data.rematch.table_id
    key = rematch.rematch_key(data.table_id)
    made = await conn.node.lobby.create(data.options, conn.address, conn.created, key)
    return made.table_id


async def _sit_down(
    conn: Requester, new_runtime: TableRuntime, data: TableData, seat: int
) -> tr.Change:
    held = data.seats[seat]
    request = JoinRequest(
        name=held.name,
        now_ms=now_ms(),
        seat=seat,
        node=conn.node.settings.node_id,
        account_id=held.account_id,
        hold_start=True,  # filling the new table starts it once the old one said yes
    )
    return await new_runtime.transact(lambda d, s: rematch.seat_at_new_table(d, s, request))


async def _stand_up(new_runtime: TableRuntime, joined: tr.Change, seat: int) -> None:
    session = joined.data.seats[seat].session
    try:
        await new_runtime.transact(lambda d, s: seating.give_back(d, s, seat, session, now_ms()))
    except TableError as e:  # the seat stays; its player may resume it by account
        log.warning(
            "table %s: seat %d taken for a refused rematch answer stays: %s",
            new_runtime.table_id,
            seat,
            e.message,
        )
