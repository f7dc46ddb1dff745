"""Stable error codes of the protocol, and the errors raised before a message reaches a table.

One class per code a refusal before the table may carry; the code is the class's
own, and every one is in ``ERROR_CODES`` (a test checks it).
"""

from __future__ import annotations

from typing import ClassVar, Literal

# Every code a server ``error`` message may carry; docs/PROTOCOL.md, section 12, explains
# each. A refusal names its code with this type (``TableError``, ``Connection.error``), so a
# code that is not documented here does not type-check; tests/protocol/test_error_codes.py
# checks that each one is documented and sent somewhere.
ErrorCode = Literal[
    "bad_frame",
    "unknown_type",
    "invalid_message",
    "bad_name",
    "frame_too_large",
    "hello_required",
    "unsupported_version",
    "rate_limited",
    "unknown_table",
    "table_full",
    "deal_in_progress",
    "too_many_tables",
    "bad_cursor",
    "bad_invite",
    "bad_token",
    "bad_key",
    "not_seated",
    "already_seated",
    "not_started",
    "already_started",
    "not_your_turn",
    "illegal_action",
    "stale",
    "table_lost",
    "unavailable",
    "outcome_unknown",
    "review_unavailable",
    "review_limit",
    "accounts_unavailable",
    "name_taken",
    "bad_password",
    "wrong_credentials",
    "bad_session",
    "not_signed_in",
    "no_account_seat",
    "database_unavailable",
    "already_queued",
    "not_queued",
    "no_match",
    "rated_needs_account",
    "queue_penalty",
    "duplicate_table",
    "no_such_event",
    "event_not_open",
    "already_entered",
    "not_entered",
    "event_played",
    "results_hidden",
    "chat_refused",
    "unknown_player",
    "too_many_mutes",
    "too_many_blocks",
    "no_such_message",
    "not_finished",
    "rematch_closed",
    "maintenance",
    "banned",
    "internal",
]

ERROR_CODES: dict[ErrorCode, str] = {
    "bad_frame": "the frame could not be decoded (not JSON / msgpack, or not an object)",
    "unknown_type": "the message's type is not one of the protocol's",
    "invalid_message": "the message does not match its schema",
    "bad_name": "a player or table name with a control or invisible character, a link, or too long",
    "frame_too_large": "the frame is larger than 64 KiB",
    "hello_required": "the first message must be hello",
    "unsupported_version": "the hello's protocol version is not supported",
    "rate_limited": "too many messages: slow down",
    "unknown_table": "no such table",
    "table_full": "no free seat (or that seat is taken)",
    "deal_in_progress": "mid-deal, seats are kept for who holds them: watch, then sit",
    "too_many_tables": "a limit on open tables (this connection's, address's or the server's)",
    "bad_cursor": "list_tables' ``after`` is not a ``next`` this server gave",
    "bad_invite": "the table is private and the invite code is missing or wrong",
    "bad_token": "the seat token is unknown or no longer valid",
    "bad_key": "an idempotency key already used for another request (another seat, another table)",
    "not_seated": "this connection holds no seat",
    "already_seated": "this connection already holds a seat or watches a table",
    "not_started": "the table has not started",
    "already_started": "the table has already started",
    "not_your_turn": "it is another seat's turn",
    "illegal_action": "the rules refuse the action (``rule`` names the ruling)",
    "stale": "the table moved on while the action was applied; look at the new state",
    "table_lost": "the table store lost this connection's table (it restarted empty)",
    "unavailable": "the table store does not answer; try again",
    "outcome_unknown": "the store did not say whether the change was kept: resume to learn it",
    "review_unavailable": "no finished deal of that number to review at this connection's table",
    "review_limit": "a review is running for this connection, or it asked for too many",
    "accounts_unavailable": "this server keeps no accounts (no history database)",
    "name_taken": "sign_up: an account has this display name (case-folded)",
    "bad_password": "sign_up: the password is too short, too long or has a control character",
    "wrong_credentials": "sign_in: unknown name or wrong password (which is not said)",
    "bad_session": "the session token is unknown, signed out or expired",
    "not_signed_in": "sign_out, or resume by table_id, on a connection not signed in",
    "no_account_seat": "resume by table_id: the account holds no seat at that table",
    "database_unavailable": "the accounts' database does not answer; try again",
    "already_queued": "queue: this connection (or this account, on another) is queued already",
    "not_queued": "cancel_queue: this connection is not in the queue",
    "no_match": "ready: no ready check of that match_id is open for this connection",
    "rated_needs_account": "queue: rated quick play needs a signed-in account (guests: casual)",
    "queue_penalty": "queue: tables left mid-game delay the next queue until penalty_until_ms",
    "duplicate_table": "the table plays a duplicate event: seated only through duplicate_play",
    "no_such_event": "no duplicate event of that id (or no deal of that number in it)",
    "event_not_open": "the duplicate event is not open: it opens later, or it has closed",
    "already_entered": "a player enters a duplicate event once (and plays at one table)",
    "not_entered": "duplicate_play or a result of an event this account has not entered",
    "event_played": "every deal of the duplicate event is played already",
    "results_hidden": "results or a deal of an open duplicate event not yet played by the asker",
    "chat_refused": "a chat message refused by a limit (``reason`` names which: section 17)",
    "unknown_player": "mute, block: no player (block: no account) of that name",
    "too_many_mutes": "mute: this player muted as many names as the server allows",
    "too_many_blocks": "block: this account blocked as many accounts as the server allows",
    "no_such_message": "report: no chat message of that number at this connection's table",
    "not_finished": "rematch: the table is not over yet",
    "rematch_closed": "rematch: the offer closed (timed out, or all answered) or the seat accepted",
    "maintenance": "the operator announced a maintenance (sent to every connection); no new tables",
    "banned": "the operator banned this player name for a time: no seat under it",
    "internal": "an unexpected server error; nothing changed",
}


def error_code(code: str) -> ErrorCode:
    """``code`` as the protocol's (another layer's code, e.g. the history's), or ``internal``
    when the protocol has no such code."""
    for known in ERROR_CODES:
        if known == code:
            return known
    return "internal"


class ProtocolError(Exception):
    """A frame or message refused before it reached a table; ``code`` is the class's."""

    code: ClassVar[ErrorCode] = "invalid_message"

    def __init__(self, message: str, request_id: str | int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.request_id = request_id  # the refused message's ``id``, when it could be read


class BadFrame(ProtocolError):
    code: ClassVar[ErrorCode] = "bad_frame"


class UnknownType(ProtocolError):
    code: ClassVar[ErrorCode] = "unknown_type"


class InvalidMessage(ProtocolError):
    code: ClassVar[ErrorCode] = "invalid_message"


class BadName(InvalidMessage, ValueError):
    """A name that cannot be shown safely (protocol/names.py); ``str`` says which character
    and why. A ``ValueError`` too, so that a model's validator can raise it."""

    code: ClassVar[ErrorCode] = "bad_name"


class FrameTooLarge(ProtocolError):
    code: ClassVar[ErrorCode] = "frame_too_large"


class HelloRequired(ProtocolError):
    code: ClassVar[ErrorCode] = "hello_required"


class UnsupportedVersion(ProtocolError):
    code: ClassVar[ErrorCode] = "unsupported_version"
