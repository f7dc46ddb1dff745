"""Quick play (protocol version 2): ask to be seated with strangers, the ready check, and
what the queue says while one waits (docs/PROTOCOL.md, section 16).

A player sends ``queue`` (rated or casual, a number of deals); the server answers
``queue_status`` now and every few seconds (how many search, never who; how long this
player has waited); when a group is found it sends ``match_found`` and the player has
until ``deadline_ms`` to say ``ready``. When every player of the group is ready the table
is made and each gets ``joined`` and the table's events, as after a ``join``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..names import PlayerName
from .base import Model
from .envelope import Reply, Request

QueueMode = Literal["rated", "casual"]
MAX_QUEUE_DEALS = 20


class Queue(Request):
    """Search a table of four by rating; a guest may ask ``casual`` only."""

    type: Literal["queue"] = "queue"
    mode: QueueMode = "casual"
    deals: int = Field(default=1, ge=1, le=MAX_QUEUE_DEALS)
    name: PlayerName = ""  # a guest's name at the table (an account sits under its own)


class CancelQueue(Request):
    """Stop searching (refused with ``not_queued`` when this connection is not queued)."""

    type: Literal["cancel_queue"] = "cancel_queue"


class Ready(Request):
    """Confirm the group ``match_found`` proposed, before its ``deadline_ms``."""

    type: Literal["ready"] = "ready"
    match_id: str = Field(min_length=1, max_length=64)


class PlayNow(Request):
    """Start now against three AI (leaving the queue if this connection was in it)."""

    type: Literal["play_now"] = "play_now"
    deals: int = Field(default=1, ge=1, le=MAX_QUEUE_DEALS)
    name: PlayerName = ""


QueueState = Literal["searching", "idle", "penalty"]
# Why a player is no longer searching: it cancelled, it did not confirm a ready check in
# time, it was seated (the table's ``joined`` follows), it asked for a table with AI, or it
# went to another table (join, watch, resume: the queue is the lobby's).
QueueReason = Literal["cancelled", "not_ready", "seated", "play_now", "other_table"]


class QueueStatus(Reply):
    """Where this connection stands in the queue.

    ``searching``: the players searching now on every node (a count, never names),
    ``waited_ms`` this player's wait so far. ``penalty``: the player left rated quick-play
    tables mid-game and may queue again at ``penalty_until_ms`` (the server's clock).
    """

    type: Literal["queue_status"] = "queue_status"
    state: QueueState
    searching: int = Field(ge=0)
    mode: QueueMode | None = None
    deals: int | None = None
    waited_ms: int = Field(default=0, ge=0)
    penalty_until_ms: int | None = None
    reason: QueueReason | None = None


class Searching(Reply):
    """After ``tables`` (version 2): how many players are searching for a quick-play table
    now, on every node (a count, never names), whoever asks: the lobby shows it."""

    type: Literal["searching"] = "searching"
    count: int = Field(ge=0)


class MatchFound(Model):
    """A group is found: say ``ready`` with ``match_id`` before ``deadline_ms``.

    ``humans`` players were found and ``ai`` AI seats fill the table (humans + ai = 4).
    Whoever does not confirm in time leaves the queue; those who did go back in first.
    """

    type: Literal["match_found"] = "match_found"
    match_id: str
    deadline_ms: int
    humans: int = Field(ge=1, le=4)
    ai: int = Field(ge=0, le=3)
    mode: QueueMode
    deals: int
