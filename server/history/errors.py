"""The history layer's errors: one hierarchy, each with a stable ``code``.

The server turns them into an ``error`` message (or an HTTP status) and keeps
the connection; the command line prints them on one line. Messages are lower
case and name the bad value, as the engine's do.
"""

from __future__ import annotations


class HistoryError(Exception):
    """Anything the history layer refuses; nothing was changed."""

    code = "history_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadDatabaseUrl(HistoryError):
    code = "bad_database_url"


class DatabaseUnavailable(HistoryError):
    """The database did not answer (down, unreachable, its file gone)."""

    code = "database_unavailable"


class AccountError(HistoryError):
    code = "account_error"


class BadName(AccountError):
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
