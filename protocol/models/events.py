"""The table events inside an ``event`` message, tagged by ``kind``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from .base import (
    Cancellation,
    CardCode,
    ContractCode,
    Model,
    PhaseName,
    PoigneeLevelName,
    Points,
    Seat,
)
from .chat_events import ChatEvent, RatingsEvent, RematchEvent
from .tables import SeatInfo
from .views import ScoreSheet


class HiddenEvent(Model):
    """An event this connection may not see: only its number is sent."""

    kind: Literal["hidden"] = "hidden"


class SeatChanged(Model):
    kind: Literal["seat"] = "seat"
    seat: SeatInfo


class DealStartedEvent(Model):
    kind: Literal["deal_started"] = "deal_started"
    deal_number: int
    dealer: Seat


class HandEvent(Model):
    """Private: a seat's 18 dealt cards."""

    kind: Literal["hand"] = "hand"
    seat: Seat
    cards: list[CardCode]


class BidEvent(Model):
    kind: Literal["bid"] = "bid"
    seat: Seat
    contract: ContractCode


class TakerEvent(Model):
    kind: Literal["taker"] = "taker"
    seat: Seat
    contract: ContractCode


class ChienEvent(Model):
    """Public for prise and garde (R6)."""

    kind: Literal["chien"] = "chien"
    cards: list[CardCode]


class DiscardEvent(Model):
    """Public: the discard was made; its trumps are shown to all (R6)."""

    kind: Literal["discard"] = "discard"
    seat: Seat
    trumps: list[CardCode]


class DiscardKeptEvent(Model):
    """Private to the taker: the whole discard."""

    kind: Literal["discard_kept"] = "discard_kept"
    seat: Seat
    cards: list[CardCode]
    points: Points = 0  # the discard's card points, which count for the taker (R6)


class ChelemEvent(Model):
    kind: Literal["chelem"] = "chelem"
    seat: Seat
    announced: bool


class PoigneeEvent(Model):
    kind: Literal["poignee"] = "poignee"
    seat: Seat
    level: PoigneeLevelName
    cards: list[CardCode]


class CardEvent(Model):
    kind: Literal["card"] = "card"
    seat: Seat
    card: CardCode


class TrickEvent(Model):
    kind: Literal["trick"] = "trick"
    number: int
    leader: Seat
    cards: list[CardCode]
    winner: Seat
    points: list[Points]  # card points in tricks so far: [taker's side, defence], Excuse included
    taker_bouts: int = 0  # bouts in the taker's tricks so far (R15)
    target: int = 56  # the points those bouts ask for: 56, 51, 41 or 36


class TurnEvent(Model):
    """Public: whose turn it is, and until when (ms since the epoch) if timed."""

    kind: Literal["turn"] = "turn"
    seat: Seat
    phase: PhaseName
    deadline_ms: int | None = None


class CancelledEvent(Model):
    kind: Literal["cancelled"] = "cancelled"
    reason: Cancellation


class ScoreEvent(Model):
    kind: Literal["score"] = "score"
    deal_number: int
    sheet: ScoreSheet
    totals: list[Points]


class RecordEvent(Model):
    """Public after the deal: its full ``tarot-record/1`` (docs/RECORD.md)."""

    kind: Literal["record"] = "record"
    deal_number: int
    record: dict[str, Any]


class BetweenDealsEvent(Model):
    """Public, after a played deal's score: deal ``next_deal_number`` starts at ``deadline_ms``
    at the latest, sooner once ``waiting_for`` is empty (every human seat sent ``next_deal``).

    Sent again, with fewer seats, each time a seat says it is ready.
    """

    kind: Literal["between_deals"] = "between_deals"
    next_deal_number: int
    deadline_ms: int
    waiting_for: list[Seat]


class TableOverEvent(Model):
    kind: Literal["table_over"] = "table_over"
    totals: list[Points]


EventModel = Annotated[
    HiddenEvent
    | SeatChanged
    | DealStartedEvent
    | HandEvent
    | BidEvent
    | TakerEvent
    | ChienEvent
    | DiscardEvent
    | DiscardKeptEvent
    | ChelemEvent
    | PoigneeEvent
    | CardEvent
    | TrickEvent
    | TurnEvent
    | CancelledEvent
    | ScoreEvent
    | RecordEvent
    | BetweenDealsEvent
    | TableOverEvent
    | ChatEvent
    | RematchEvent
    | RatingsEvent,
    Field(discriminator="kind"),
]


EVENTS: TypeAdapter[EventModel] = TypeAdapter(EventModel)
