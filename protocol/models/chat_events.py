"""The table events of chat and rematch (protocol version 2; docs/PROTOCOL.md, section 17).

Apart from ``chat.py`` (the requests and replies) so that ``events.py`` can list them
in the table events' union without importing the replies.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import Field

from ..names import PLAYER_NAME_MAX
from .base import Model, Seat, TableId

# The preset phrases: their codes travel, each client says them in its reader's language.
PresetCode = Literal[
    "hello",
    "good_luck",
    "well_played",
    "thanks",
    "oops",
    "sorry",
    "good_game",
    "bye",
]
PRESET_CODES: tuple[str, ...] = get_args(PresetCode)


class ChatEvent(Model):
    """Public: a chat message. ``seat`` null: a spectator's. ``spectators_only``: said by
    a spectator during a deal, shown to spectators only."""

    kind: Literal["chat"] = "chat"
    seat: Seat | None
    name: Annotated[str, Field(max_length=PLAYER_NAME_MAX)]
    account_id: int | None = None
    preset: PresetCode | None = None
    text: str | None = None
    spectators_only: bool = False


class RematchEvent(Model):
    """Public at a finished table: the rematch's table and the seats that accepted or
    declined so far. ``started``: every human answered (or the offer timed out) and the
    new table was started. ``timed_out``: the offer closed, these seats had not answered.
    ``deadline_ms``: when the offer closes, while it is open (null once it closed)."""

    kind: Literal["rematch"] = "rematch"
    table_id: TableId
    accepted: list[Seat]
    declined: list[Seat]
    started: bool = False
    timed_out: list[Seat] = Field(default_factory=list)
    deadline_ms: int | None = None


class RatingChangeLine(Model):
    seat: Seat
    name: str
    before: float
    after: float


class RatingsEvent(Model):
    """Public, after a rated deal was written: each rated seat's rating before and after."""

    kind: Literal["ratings"] = "ratings"
    deal_number: int
    changes: list[RatingChangeLine]


# Version 2's table event kinds: a version 1 connection gets them as ``hidden``.
V2_EVENT_KINDS = frozenset({"chat", "rematch", "ratings"})
