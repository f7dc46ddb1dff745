"""The connection as the request handlers outside it see it (``*_requests.py``).

``connection.Connection`` imports the handlers (``feature_requests.HANDLERS``), so
they cannot import it back: each takes the connection as this ``Protocol``, what
the handlers use of it, declared once for all of them (mypy checks that
``connection.Connection`` is one wherever it is passed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from protocol import models as m
from protocol.errors import ErrorCode

from . import connection_state as cs

if TYPE_CHECKING:
    from server.node.node import Node
    from server.node.runtime import TableRuntime
    from server.table.transitions import Change

    from .signin import Signing


class Requester(Protocol):
    """What the request handlers use of a connection (``connection.Connection``)."""

    node: Node
    version: int
    address: str
    created: set[str]  # the ids of the tables it created
    signing: Signing
    state: cs.ConnectionState[TableRuntime]

    @property
    def table(self) -> TableRuntime | None: ...

    @property
    def seat(self) -> int | None: ...

    @property
    def player(self) -> str: ...

    def send(self, message: m.Model) -> None: ...

    def error(
        self,
        code: ErrorCode,
        message: str,
        rule: str | None = ...,
        reason: str | None = ...,
        re: m.RequestId | None = ...,
    ) -> None: ...

    def _seated(self) -> tuple[TableRuntime, int]: ...

    async def _seated_by(
        self,
        runtime: TableRuntime,
        change: Change,
        re: m.RequestId | None,
        last_seq: int | None = ...,
    ) -> None: ...

    async def _resume(self, token: str, last_seq: int | None, re: m.RequestId | None) -> None: ...
