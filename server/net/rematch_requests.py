"""A connection's ``rematch`` (docs/PROTOCOL.md, section 17); the rules are
``server/table/rematch.py``'s.

The first answer makes the new table (``lobby.create`` with the rematch's key:
one table whichever node asks). A seat that accepts is seated at the new table
in the same seat, under the same name and account, and this connection moves
there (``joined``, then its events); one that declines gets an ``ack``. The
answer that completes them starts the new table: the AI takes the seats left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from protocol import models as m
from server.clock import now_ms
from server.node.rematch_timers import start_rematch_table
from server.table import rematch, seating
from server.table.seating import JoinRequest

from . import acks
from . import connection_state as cs
from .requester import Requester

if TYPE_CHECKING:
    from server.node.runtime import Subscriber


async def answer(conn: Requester, message: m.Rematch) -> None:
    runtime, seat = conn._seated()
    data = runtime.data
    rematch.check_finished(data, seat)
    if data.rematch is not None:
        new_id = data.rematch.table_id
    else:
        key = rematch.rematch_key(data.table_id)
        made = await conn.node.lobby.create(data.options, conn.address, conn.created, key)
        new_id = made.table_id
    closes = now_ms() + round(conn.node.settings.rematch_seconds * 1000)
    change = await runtime.transact(
        lambda d, s: rematch.answer(d, s, seat, message.accept, new_id, closes)
    )
    new_runtime = await conn.node.runtime(new_id)
    if message.accept:
        held = change.data.seats[seat]
        request = JoinRequest(
            name=held.name,
            now_ms=now_ms(),
            seat=seat,
            node=conn.node.settings.node_id,
            account_id=held.account_id,
        )
        joined = await new_runtime.transact(lambda d, s: seating.join(d, s, request))
        conn.state = cs.on_leave(conn.state)  # the finished table is left as it is
        runtime.unsubscribe(cast("Subscriber", conn))  # it is one (connection.Connection)
        await conn._seated_by(new_runtime, joined, message.id)
    else:
        acks.ack(cast("acks.Asker", conn), runtime, message.id, None)
    if rematch.starts(change.data):
        await start_rematch_table(new_runtime)
