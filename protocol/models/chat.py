"""Table chat and rematch (protocol version 2; docs/PROTOCOL.md, section 17).

A seated player sends a preset phrase (a code, translated on the reader's
side) during a deal, free text between deals and once the table is over;
spectators talk among themselves. Chat reaches a table's followers as the
table event ``chat``, through the table's event log (every node, in order,
replayed on resume), never in the game record. ``mute`` and ``unmute`` are a
guest connection's own, a signed-in account's (all its connections) kept in the
history database, like ``block`` (signed in only);
``report`` keeps a message and the messages before it for an operator.
``rematch`` answers the offer of a new table to the same humans.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from ..errors import BadName
from ..names import PLAYER_NAME_MAX, clean_name
from .base import Model, StoredId
from .chat_events import ChatEvent, PresetCode, RatingChangeLine, RatingsEvent, RematchEvent
from .envelope import Reply, Request

CHAT_TEXT_MAX = 140  # characters, once cleaned (protocol/names.py's rules)
REPORT_REASON_MAX = 200


def _shown_text(text: str, limit: int, what: str = "text") -> str:
    """Free text others are shown (chat text, a report's reason, which an operator reads
    in a terminal) is shown like a name: no control, format or invisible character
    (``bad_name``); at most ``limit`` characters once cleaned."""
    try:
        cleaned = clean_name(text, len(text))
    except BadName as e:
        raise PydanticCustomError("bad_name", str(e).replace("the name", f"the {what}")) from None
    if len(cleaned) > limit:
        raise ValueError(f"the {what} has {len(cleaned)} characters; at most {limit}")
    return cleaned


def _clean_text(text: str) -> str:
    """Chat text: ``_shown_text``'s rules, at most ``CHAT_TEXT_MAX``, not empty."""
    cleaned = _shown_text(text, CHAT_TEXT_MAX)
    if not cleaned:
        raise ValueError("the text is empty")
    return cleaned


def _clean_reason(text: str) -> str:
    return _shown_text(text, REPORT_REASON_MAX, "reason")


def _clean_target(text: str) -> str:
    """The name a ``mute``, ``unmute`` or ``block`` names: a player name, not empty."""
    try:
        cleaned = clean_name(text, PLAYER_NAME_MAX)
    except BadName as e:
        raise PydanticCustomError("bad_name", str(e)) from None
    if not cleaned:
        raise ValueError("the name is empty")
    return cleaned


TargetName = Annotated[str, Field(max_length=PLAYER_NAME_MAX), AfterValidator(_clean_target)]

# The schema's bound is on the raw text (spaces folded later): four times the limit.
ChatText = Annotated[
    str, Field(min_length=1, max_length=4 * CHAT_TEXT_MAX), AfterValidator(_clean_text)
]
ReportReason = Annotated[str, Field(max_length=REPORT_REASON_MAX), AfterValidator(_clean_reason)]


class Chat(Request):
    """Say something at this connection's table: a ``preset`` code, or ``text``."""

    type: Literal["chat"] = "chat"
    preset: PresetCode | None = None
    text: ChatText | None = None

    @model_validator(mode="after")
    def _one_of(self) -> Chat:
        if (self.preset is None) == (self.text is None):
            raise ValueError("give a preset or a text, not both nor neither")
        return self


class Mute(Request):
    """Hide this player's chat until ``unmute``: from this connection (a guest, until it
    closes) or from every connection of the signed-in account (kept)."""

    type: Literal["mute"] = "mute"
    name: TargetName


class Unmute(Request):
    type: Literal["unmute"] = "unmute"
    name: TargetName


class Block(Request):
    """Signed in: never be seated with this account again by quick play, nor see its chat
    (nor it yours). Kept in the history database."""

    type: Literal["block"] = "block"
    name: TargetName


class Report(Request):
    """Report the chat message of event ``seq`` at this connection's table."""

    type: Literal["report"] = "report"
    seq: StoredId
    reason: ReportReason = ""


class Rematch(Request):
    """At a finished table, a seated human: play again with the same humans (``accept``),
    or not. The first answer makes the new table; whoever declines is replaced by AI."""

    type: Literal["rematch"] = "rematch"
    accept: bool = True


# ---------------------------------------------------------------- replies


class Muted(Reply):
    """The answer to ``mute`` and ``unmute``: the names this connection mutes now."""

    type: Literal["muted"] = "muted"
    names: list[str]


class Blocked(Reply):
    type: Literal["blocked"] = "blocked"
    name: str


class Online(Reply):
    """After ``tables`` (version 2): how many connections this server node has open now."""

    type: Literal["online"] = "online"
    count: int = Field(ge=0)


class Spectators(Model):
    """How many spectators follow the table now (version 2), sent to its followers when
    one arrives or leaves: the snapshot's ``table.spectators``, kept live. Not a table
    event: it has no number and is not replayed (a snapshot carries the count)."""

    type: Literal["spectators"] = "spectators"
    table_id: str
    count: int = Field(ge=0)


class Reported(Reply):
    type: Literal["reported"] = "reported"
    report_id: int


__all__ = [
    "CHAT_TEXT_MAX",
    "Block",
    "Blocked",
    "Chat",
    "ChatEvent",
    "ChatText",
    "Mute",
    "Muted",
    "Online",
    "PresetCode",
    "RatingChangeLine",
    "RatingsEvent",
    "Rematch",
    "RematchEvent",
    "Report",
    "Reported",
    "Spectators",
    "Unmute",
]
