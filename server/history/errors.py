"""The history layer's errors: one hierarchy, each with a stable ``code``.

The server turns them into an ``error`` message (or an HTTP status) and keeps
the connection; the command line prints them on one line. Messages are lower
case and name the bad value, as the engine's do.
"""

from __future__ import annotations

from server.errors import ServerError


class HistoryError(ServerError):
    """Anything the history layer refuses; nothing was changed."""

    code = "history_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadDatabaseUrl(HistoryError):
    code = "bad_database_url"


class NotADatabase(HistoryError):
    """The URL names something that is not a history database (a text file as SQLite)."""

    code = "not_a_database"


class DatabaseUnavailable(HistoryError):
    """The database did not answer (down, unreachable, its file gone)."""

    code = "database_unavailable"


class AccountError(HistoryError):
    code = "account_error"


class BadAccountName(AccountError):
    code = "bad_name"


class NameTaken(AccountError):
    code = "name_taken"


class BadPassword(AccountError):
    """A new password that breaks the rules (too short, too long, a control character)."""

    code = "bad_password"


class WrongCredentials(AccountError):
    """Unknown name or wrong password: which of the two is not said."""

    code = "wrong_credentials"


class BadSession(AccountError):
    """A session token that is unknown, revoked or expired."""

    code = "bad_session"


class BadRecord(HistoryError):
    """A record to store or import that is not a valid, finished ``tarot-record/1``."""

    code = "bad_record"


class DuplicateEventError(HistoryError):
    """A duplicate event refuses what was asked of it (docs/DUPLICATE.md)."""

    code = "event_error"


class NoSuchEvent(DuplicateEventError):
    code = "no_such_event"


class EventNotOpen(DuplicateEventError):
    """Entering or playing an event before it opens, after it closes, or once scored."""

    code = "event_not_open"


class EventStillOpen(DuplicateEventError):
    """Scoring an event before it closes."""

    code = "event_still_open"


class AlreadyEntered(DuplicateEventError):
    """A player enters an event once."""

    code = "already_entered"


class BadEntry(DuplicateEventError):
    """An entry that cannot be: no such account, an AI in a robot event."""

    code = "bad_entry"


class NotEntered(DuplicateEventError):
    """No such entry in the event, or the viewer did not enter it."""

    code = "not_entered"


class BadEventResult(DuplicateEventError):
    """A result that does not fit the event: a deal out of order or range, another seat,
    a score that is not a whole or half point, an unknown contract."""

    code = "bad_event_result"


class ResultsHidden(DuplicateEventError):
    """Results not shown yet: another's result on a deal the viewer has not played, or
    anything but one's own before the event closes (and is scored)."""

    code = "results_hidden"
