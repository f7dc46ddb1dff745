"""A connection's lobby request, ``list_tables`` (docs/PROTOCOL.md, section 4).

The answer is the lobby's page of tables (``tables``, from ``server/node/lobby.py``);
a version 2 connection gets then how many are online on every node (``online``) and
how many search for quick play on every node (``searching``, section 16).
"""

from __future__ import annotations

from protocol import models as m

from . import queue_requests
from .requester import Requester


async def handle(conn: Requester, message: m.ListTables) -> None:
    conn.send(await conn.node.lobby.page(message))
    online(conn, message.id)
    await queue_requests.searching(conn, message.id)


def online(conn: Requester, re: m.RequestId | None) -> None:
    """After ``tables``, to a version 2 connection: how many connections every node has."""
    if conn.version >= 2:
        conn.send(m.Online(count=conn.node.watch.online(), re=re))
