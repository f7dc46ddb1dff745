"""When a ``start``, ``act`` or ``next_deal`` with an ``id`` is done: its ``ack``.

Version 1 sends an ``ack`` after the change's events. Version 2 folds the
request's ``re`` into the ``events`` frame of its change (server/node/fanout.py,
``Asked``) and sends an ``ack`` only when no such frame carried it: the request
changed nothing, or its events reached the connection another way (a replay).
"""

from __future__ import annotations

from typing import Protocol

from protocol import models as m
from server.node.runtime import Asked, Subscriber, TableRuntime


class Asker(Subscriber, Protocol):
    version: int

    def send(self, message: m.Model) -> None: ...


def asking(conn: Asker, re: m.RequestId | None) -> Asked[Subscriber] | None:
    """Version 2: the ``events`` frame of the request's change is to carry its ``re``."""
    return Asked(conn, re) if re is not None and conn.version >= 2 else None


def ack(
    conn: Asker, runtime: TableRuntime, re: m.RequestId | None, asked: Asked[Subscriber] | None
) -> None:
    """``ack`` the request (with an ``id``) unless its ``events`` frame said it was done."""
    if re is not None and (asked is None or not asked.answered):
        conn.send(m.Ack(re=re, table_id=runtime.table_id, seq=runtime.data.seq))
