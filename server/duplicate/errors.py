"""The duplicate layer's errors: one hierarchy, each with a stable ``code``.

Raised by the pure modules of ``server.duplicate`` for input they cannot take:
an event definition that is not one (``BadEvent``), results that cannot be
scored together (``BadResults``). Nothing is changed when one is raised;
messages are lower case and name the bad value, as the engine's do.
"""

from __future__ import annotations

from server.errors import ServerError


class DuplicateError(ServerError):
    """Anything the duplicate layer refuses."""

    code = "duplicate_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadEvent(DuplicateError):
    """An event definition that breaks a rule: its seed, deals, window, kind or scoring."""

    code = "bad_event"


class BadResults(DuplicateError):
    """Results that cannot be scored: a deal or seat out of range, an entrant twice on a
    deal, an unknown entrant, a score that is not a whole or half point."""

    code = "bad_results"
