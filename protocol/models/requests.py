"""Client -> server: every message a client sends, tagged by ``type``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter, field_validator, model_validator

from ..names import PLAYER_NAME_MAX, PlayerName, refuse_link, wire_check
from .actions import ActionModel
from .base import (
    AiLevel,
    Seat,
    StoredId,
    StoredIndex,
    TableId,
)
from .chat import Block, Chat, Mute, Rematch, Report, Unmute
from .duplicate import DuplicateEnter, DuplicateList, DuplicatePlay, DuplicateShow
from .envelope import Request
from .queue import CancelQueue, PlayNow, Queue, Ready
from .tables import TableOptions


class Hello(Request):
    """``session``: an account's session token (``signed_in``): the connection is signed in."""

    type: Literal["hello"] = "hello"
    protocol: int
    client: str = Field(default="", max_length=100)
    session: str | None = Field(default=None, min_length=1, max_length=128)


class SignUp(Request):
    """A new account (its name unique, case-folded), signed in on this connection."""

    type: Literal["sign_up"] = "sign_up"
    # As a seat's name: past PLAYER_NAME_MAX as sent, invalid_message; then checked as a
    # display name (bad_name): server/history/accounts.py
    name: str = Field(max_length=PLAYER_NAME_MAX)
    password: str = Field(max_length=1024)  # its own rules say more: 8-128 characters


class SignIn(Request):
    type: Literal["sign_in"] = "sign_in"
    name: str = Field(max_length=200)
    password: str = Field(max_length=1024)


class SignOut(Request):
    """End the connection's session (the token is revoked); seats already taken stay."""

    type: Literal["sign_out"] = "sign_out"


class ChangePassword(Request):
    """A new password for the signed-in account: this session stays, the account's
    other sessions are revoked (a device that knew the old password is signed out)."""

    type: Literal["change_password"] = "change_password"
    old_password: str = Field(max_length=1024)
    new_password: str = Field(max_length=1024)  # the sign-up rules: 8-128 characters


class ListTables(Request):
    """One page of the open tables, oldest first; ``after``: the last page's ``next``."""

    type: Literal["list_tables"] = "list_tables"
    open_seats: bool = False  # only tables with a seat one may take now
    ai_level: AiLevel | None = None  # only tables whose AI plays at this level
    limit: int = Field(default=50, ge=1, le=100)
    after: str | None = Field(default=None, max_length=100)


# An idempotency key: a random secret of the client's, one per request (server/request_keys).
RequestKey = Annotated[str, Field(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


class CreateTable(Request):
    """``key``: sent again with the same key, the table made the first time is answered."""

    type: Literal["create_table"] = "create_table"
    options: TableOptions = Field(default_factory=TableOptions)
    key: RequestKey | None = None

    @field_validator("options")
    @classmethod
    def _no_link_in_name(cls, options: TableOptions) -> TableOptions:
        """A new table's name holds no link (protocol/names.py); ``TableOptions`` is the
        stored form too, where a name given before this rule still loads."""
        wire_check(refuse_link)(options.name)
        return options


class Join(Request):
    """Take a seat: a given one, or any free one when ``seat`` is null. ``key``: sent again
    with the same key, the seat taken the first time is answered (its token the same)."""

    type: Literal["join"] = "join"
    table_id: TableId
    seat: Seat | None = None
    name: PlayerName = ""  # cleaned or refused: protocol/names.py
    invite: str | None = Field(default=None, max_length=64)
    key: RequestKey | None = None


class Watch(Request):
    type: Literal["watch"] = "watch"
    table_id: TableId
    invite: str | None = Field(default=None, max_length=64)


class Resume(Request):
    """Come back to a seat with its token, or (signed in) to the account's seat at
    ``table_id``; ``last_seq`` is the last event seen."""

    type: Literal["resume"] = "resume"
    token: str | None = Field(default=None, min_length=1, max_length=128)
    table_id: TableId | None = None
    last_seq: StoredIndex | None = None

    @model_validator(mode="after")
    def _one_way(self) -> Resume:
        if (self.token is None) == (self.table_id is None):
            raise ValueError("give a token or a table_id, not both nor neither")
        return self


class Start(Request):
    """Start the table now: empty seats are filled with AI."""

    type: Literal["start"] = "start"


class Act(Request):
    type: Literal["act"] = "act"
    action: ActionModel


class NextDeal(Request):
    """This seat is ready for the next deal (the table waits for every human seat)."""

    type: Literal["next_deal"] = "next_deal"


class Leave(Request):
    type: Literal["leave"] = "leave"


class ReviewDeal(Request):
    """Review the deal just played at this connection's table (``deal_number``) by the AI."""

    type: Literal["review_deal"] = "review_deal"
    deal_number: StoredId


class ReviewStoredDeal(Request):
    """Review a played deal of the history database by its id (as its records are kept)."""

    type: Literal["review_stored_deal"] = "review_stored_deal"
    table_id: TableId
    deal_number: StoredIndex  # the deal's index among those dealt at the table


class Ping(Request):
    type: Literal["ping"] = "ping"


ClientMessage = Annotated[
    Hello
    | SignUp
    | SignIn
    | SignOut
    | ChangePassword
    | ListTables
    | CreateTable
    | Join
    | Watch
    | Resume
    | Start
    | Act
    | NextDeal
    | Leave
    | ReviewDeal
    | ReviewStoredDeal
    | Ping
    | Queue
    | CancelQueue
    | Ready
    | PlayNow
    | DuplicateList
    | DuplicateEnter
    | DuplicatePlay
    | DuplicateShow
    | Chat
    | Mute
    | Unmute
    | Block
    | Report
    | Rematch,
    Field(discriminator="type"),
]


CLIENT_MESSAGES: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
