"""Server -> client: every message the server sends, tagged by ``type``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, SerializerFunctionWrapHandler, TypeAdapter, model_serializer

from .base import (
    PROTOCOL_VERSION,
    Model,
    RequestId,
    Seat,
    TableId,
)
from .batches import Events, TurnOffer
from .chat import Blocked, Muted, Online, Reported, Spectators
from .duplicate import DuplicateEntered, DuplicateEvents, DuplicateResults
from .envelope import Reply
from .events import EventModel
from .queue import MatchFound, QueueStatus, Searching
from .review import Review
from .tables import TableSummary
from .views import LegalChoices, SeatView


class AccountInfo(Model):
    id: int
    name: str


class HeldSeat(Model):
    """A seat the account holds at a table not finished: ``resume`` with its ``table_id``."""

    table_id: TableId
    seat: Seat


class Welcome(Reply):
    """``account`` and ``seats`` only when the ``hello`` carried a valid session."""

    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    server: str
    account: AccountInfo | None = None
    seats: list[HeldSeat] | None = None

    @model_serializer(mode="wrap")
    def _drop_null_re(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        re = data.pop("re")
        for name in ("account", "seats"):
            if data[name] is None:
                del data[name]  # a guest's welcome is what it always was
        if re is not None:
            data["re"] = re
        return data


class SignedInAs(Reply):
    """Signed in as ``account``: keep ``token`` (the session) for the next ``hello``."""

    type: Literal["signed_in"] = "signed_in"
    account: AccountInfo
    token: str
    seats: list[HeldSeat] = Field(default_factory=list)


class SignedOut(Reply):
    type: Literal["signed_out"] = "signed_out"


class PasswordChanged(Reply):
    type: Literal["password_changed"] = "password_changed"


class Tables(Reply):
    type: Literal["tables"] = "tables"
    tables: list[TableSummary]
    next: str | None = None  # more tables match: ask again with ``after`` set to this


class TableCreated(Reply):
    type: Literal["table_created"] = "table_created"
    table: TableSummary
    invite: str | None = None


class Joined(Reply):
    """You hold ``seat`` at the table; keep ``token`` to resume it."""

    type: Literal["joined"] = "joined"
    table_id: TableId
    seat: Seat
    token: str


class Watching(Reply):
    type: Literal["watching"] = "watching"
    table_id: TableId


class Snapshot(Model):
    """The whole picture at event ``seq``: the table and this connection's view."""

    type: Literal["snapshot"] = "snapshot"
    table_id: TableId
    seq: int
    table: TableSummary
    view: SeatView | None  # None before the first deal
    your_turn: TurnOffer | None = None  # version 2, to the seat to act: its turn folded in

    @model_serializer(mode="wrap")
    def _drop_null_turn(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data["your_turn"] is None:
            del data["your_turn"]  # version 1's snapshot is what it always was
        return data


class Event(Model):
    """One table event, numbered; ``event`` is ``hidden`` where it is not yours to see."""

    type: Literal["event"] = "event"
    table_id: TableId
    seq: int
    event: EventModel


class YourTurn(Model):
    """Private: it is your turn at event ``seq``; here is what you may do."""

    type: Literal["your_turn"] = "your_turn"
    table_id: TableId
    seq: int
    legal: LegalChoices
    deadline_ms: int | None = None


class Left(Reply):
    type: Literal["left"] = "left"
    table_id: TableId


class Pong(Reply):
    type: Literal["pong"] = "pong"


class Ack(Reply):
    """``start``, ``act`` or ``next_deal`` with an ``id`` was done: its events, if any, came first.

    ``seq`` is the table's last event when it was done.
    """

    type: Literal["ack"] = "ack"
    re: RequestId
    table_id: TableId
    seq: int


class Error(Reply):
    """A refused message: nothing changed. ``code`` is stable (see docs/PROTOCOL.md)."""

    type: Literal["error"] = "error"
    code: str
    message: str
    rule: str | None = None  # the ruling (R1-R20) behind an illegal action
    reason: str | None = None  # the engine's finer code, e.g. must_follow_suit


class ReviewProgress(Reply):
    """A review in progress: ``done`` of ``total`` decisions analysed; ``deal_number`` is the
    request's (``stored``: a ``review_stored_deal``'s, numbered as the history keeps it)."""

    type: Literal["review_progress"] = "review_progress"
    table_id: TableId
    deal_number: int
    stored: bool = False
    done: int
    total: int


class DealReview(Reply):
    """The answer to ``review_deal``: every decision of the deal judged (``tarot review``)."""

    type: Literal["deal_review"] = "deal_review"
    table_id: TableId
    deal_number: int
    review: Review


class StoredDealReview(Reply):
    """The answer to ``review_stored_deal``: the same review, of a deal of the history."""

    type: Literal["stored_deal_review"] = "stored_deal_review"
    table_id: TableId
    deal_number: int
    review: Review


class Bye(Model):
    """The server closes this connection: ``replaced``, ``shutdown``, ``abuse``..."""

    type: Literal["bye"] = "bye"
    reason: str
    message: str = ""


ServerMessage = Annotated[
    Welcome
    | SignedInAs
    | SignedOut
    | PasswordChanged
    | Tables
    | TableCreated
    | Joined
    | Watching
    | Snapshot
    | Event
    | Events
    | YourTurn
    | Left
    | Pong
    | Ack
    | Error
    | ReviewProgress
    | DealReview
    | StoredDealReview
    | Bye
    | QueueStatus
    | MatchFound
    | Searching
    | DuplicateEvents
    | DuplicateEntered
    | DuplicateResults
    | Muted
    | Blocked
    | Reported
    | Online
    | Spectators,
    Field(discriminator="type"),
]

SERVER_MESSAGES: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
