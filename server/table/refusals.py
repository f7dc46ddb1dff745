"""What a node answers when it cannot do what a client asked: one hierarchy, one translation.

``TableError`` carries a protocol error code (docs/PROTOCOL.md, section 14) and
is answered as an ``error`` message, the connection kept. Its two kinds say who
said no:

- ``TableRefused``: the table refuses the request (its seats, its phase, its
  limits; a rule of the game arrives as the engine's refusal, with its ruling);
- ``TableUnavailable``: the store failed. ``unavailable`` means nothing
  changed; ``outcome_unknown`` that the store could not say whether the change
  was kept (the client resumes to learn it).

A store failure becomes a ``TableUnavailable`` in ``server.store.base.unavailable``
and nowhere else, so every path that meets the store answers it with the same words.
"""

from __future__ import annotations

from protocol.errors import ErrorCode
from server.errors import ServerError


class TableError(ServerError):
    """A request the node does not carry out; ``code`` is a protocol error code."""

    def __init__(
        self, code: ErrorCode, message: str, *, rule: str | None = None, reason: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.reason = reason


class TableRefused(TableError):
    """The table refuses the request (a transition's refusal, or the engine's with its rule)."""


class TableUnavailable(TableError):
    """The store failed: nothing changed (``unavailable``), or it cannot say."""


class AccountRefused(TableError):
    """Signing up, in or out was refused (a bad name or password, a revoked session, no
    accounts on this node, their database down): the history layer's code, unchanged."""


def review_refused(message: str) -> TableRefused:
    """A deal review a player may not start now (``review_limit``)."""
    return TableRefused("review_limit", message)


def reviews_over(per_window: int, window: float, wait: float) -> TableRefused:
    """The refusal of a review past the window's count; the next one in ``wait`` seconds."""
    return review_refused(
        f"at most {per_window} reviews per player in {window / 60:g} min; the next in {wait:.0f} s"
    )
