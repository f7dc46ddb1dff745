"""The client library's exceptions: a server's refusal, no server, a lost connection.

A refused message changes nothing on the server; ``Refused`` carries the
server's ``error`` message as it was sent (its stable ``code``, the
``message``, and for an illegal action the ``rule`` and the engine's
``reason``). See docs/PROTOCOL.md for every code.
"""

from __future__ import annotations

from protocol import models as m


class ClientError(Exception):
    """Base of every exception raised by ``clients.python``."""


class Refused(ClientError):
    """The server refused a message: ``code`` is stable, ``rule`` names the ruling (R1-R20).

    ``resent`` says the refusal answered the message sent again after an
    ``unavailable``: the first sending changed nothing, if the server keeps
    the protocol's promise (one that does not may have applied it).
    """

    def __init__(
        self,
        code: str,
        message: str,
        rule: str | None = None,
        reason: str | None = None,
        resent: bool = False,
    ) -> None:
        named = rule is None or f"({rule})" in message  # the server's message may name it
        super().__init__(f"{code}: {message}" + ("" if named else f" ({rule})"))
        self.code = code
        self.message = message
        self.rule = rule
        self.reason = reason
        self.resent = resent

    @classmethod
    def of(cls, error: m.Error) -> Refused:
        return cls(error.code, error.message, error.rule, error.reason)


class Unreachable(ClientError):
    """``Client.connect`` could not open the connection: refused, timed out, or closed
    before the server's ``welcome``. Trying again later may work."""


class BadURL(ClientError, ValueError):
    """``Client.connect`` was given a URL that is not ``ws://`` or ``wss://`` (or has a bad
    host or port). Nothing was tried; trying again cannot work."""


class ConnectionLost(ClientError):
    """The connection dropped while a request waited; the client reconnects if it can.

    Whether the request reached the table is unknown: the events that follow
    the reconnection tell (an action that was applied shows up as its event).
    """


class Disconnected(ClientError):
    """The connection is gone for good: closed, replaced by another, or not resumable."""

    def __init__(self, message: str, reason: str = "closed") -> None:
        super().__init__(message)
        self.reason = reason


class QueueEnded(ClientError):
    """The quick-play search ended without a seat: ``reason`` (``not_ready``, ``cancelled``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the quick-play search ended: {reason}")
        self.reason = reason
