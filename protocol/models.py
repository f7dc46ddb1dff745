"""Every message of the ``tarot.v1`` protocol, both ways, as frozen pydantic models.

Messages are tagged by ``type``; table events inside an ``event`` message are
tagged by ``kind``. Cards are the codes of RECORD.md (``T21``, ``EX``, ``KH``).
Wire models are not engine types: ``convert`` turns one into the other.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    model_serializer,
)

PROTOCOL_VERSION = 1
MAX_FRAME_BYTES = 64 * 1024

CardCode = Annotated[str, Field(pattern=r"^(T([1-9]|1[0-9]|2[01])|EX|([1-9]|10|[JNQK])[SHDC])$")]
ContractCode = Literal["pass", "prise", "garde", "garde_sans", "garde_contre"]
Seat = Annotated[int, Field(ge=0, le=3)]
TableId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
Number = int | float  # scores keep their int form (45, not 45.0); halves are floats
AiLevel = Literal["random", "basic", "expert", "strong"]
PoigneeLevelName = Literal["simple", "double", "triple"]
PhaseName = Literal["bidding", "discard", "chelem", "play", "done"]
# A client's name for one request, echoed as ``re`` in its answer: a short string, or an
# integer that every JSON implementation (JavaScript's doubles included) reads exactly.
RequestId = (
    Annotated[str, Field(strict=True, min_length=1, max_length=64)]
    | Annotated[int, Field(strict=True, ge=-(2**53 - 1), le=2**53 - 1)]
)


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# ---------------------------------------------------------------- table data


class TableOptions(Model):
    name: str = Field(default="", max_length=60)
    deals: int | None = Field(default=1, ge=1, le=1000)  # None: until everyone leaves
    ai_level: AiLevel = "basic"
    turn_seconds: float | None = Field(default=None, gt=0, le=3600)  # None: no limit
    grace_seconds: float = Field(default=60.0, ge=0, le=3600)
    private: bool = False


class SeatInfo(Model):
    seat: Seat
    occupant: Literal["human", "ai", "empty"]
    name: str = ""
    connected: bool = False  # a human seat whose player is online


class TableSummary(Model):
    table_id: TableId
    options: TableOptions
    seats: list[SeatInfo]
    status: Literal["waiting", "playing", "finished"]
    phase: PhaseName | None = None
    deal_number: int = 0
    spectators: int = 0
    totals: list[Number] = Field(default_factory=lambda: list[Number]([0, 0, 0, 0]))
    next_deal_ms: int | None = None  # between deals: the next one starts then at the latest


class DiscardChoice(Model):
    count: int
    allowed: list[CardCode]
    required: list[CardCode]


class PoigneeChoice(Model):
    level: PoigneeLevelName
    size: Literal[10, 13, 15]
    cards: list[CardCode]


class LegalChoices(Model):
    """What the seat to act may do now (only ever sent to that seat)."""

    seat: Seat
    phase: PhaseName
    bids: list[ContractCode] = Field(default_factory=list)
    discard: DiscardChoice | None = None
    chelem: bool = False  # the chelem decision is due (announce true or false)
    poignees: list[PoigneeChoice] = Field(default_factory=list)
    cards: list[CardCode] = Field(default_factory=list)


class TrickInfo(Model):
    leader: Seat
    cards: list[CardCode]
    winner: Seat | None = None


class BidInfo(Model):
    seat: Seat
    contract: ContractCode


class PoigneeInfo(Model):
    seat: Seat
    level: PoigneeLevelName
    cards: list[CardCode]


class WithoutNulls(Model):
    """Serialized without its null fields: the sheet is exactly RECORD.md's JSON."""

    @model_serializer(mode="wrap")
    def _drop_nulls(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {k: v for k, v in data.items() if v is not None}


class BonusLine(WithoutNulls):
    kind: Literal["petit_au_bout", "poignee", "chelem"]
    side: Literal["taker", "defence"]
    points: Number
    seat: Seat | None = None
    detail: str | None = None


class ScoreSheet(WithoutNulls):
    """The score sheet of RECORD.md (the same JSON as ``tarot score`` prints)."""

    status: Literal["played", "cancelled"]
    scores: list[Number]
    reason: Literal["all_pass", "petit_sec"] | None = None
    taker: Seat | None = None
    contract: ContractCode | None = None
    bouts: int | None = None
    points: Number | None = None
    target: int | None = None
    made: bool | None = None
    multiplier: int | None = None
    contract_score: Number | None = None
    per_defender: Number | None = None
    bonuses: list[BonusLine] | None = None
    trick_winners: list[Seat] | None = None


class SeatView(Model):
    """Everything one seat (or, with ``seat`` null, a spectator) may know now."""

    seat: Seat | None
    deal_number: int
    dealer: Seat
    phase: PhaseName
    to_act: Seat | None
    hand: list[CardCode]
    hand_sizes: list[int]
    bids: list[BidInfo]
    taker: Seat | None
    contract: ContractCode | None
    chien: list[CardCode] | None
    discard: list[CardCode] | None
    discard_trumps: list[CardCode]
    chelem: bool
    poignees: list[PoigneeInfo]
    trick: TrickInfo | None
    tricks: list[TrickInfo]
    points: list[float]  # card points in tricks so far: [taker's side, defence]
    tricks_won: list[int]
    legal: LegalChoices | None
    sheet: ScoreSheet | None


# ---------------------------------------------------------------- actions


class BidAction(Model):
    kind: Literal["bid"] = "bid"
    contract: ContractCode


class DiscardAction(Model):
    kind: Literal["discard"] = "discard"
    cards: list[CardCode] = Field(max_length=24)


class ChelemAction(Model):
    kind: Literal["chelem"] = "chelem"
    announce: bool


class PoigneeAction(Model):
    kind: Literal["poignee"] = "poignee"
    cards: list[CardCode] = Field(max_length=24)


class PlayAction(Model):
    kind: Literal["play"] = "play"
    card: CardCode


ActionModel = Annotated[
    BidAction | DiscardAction | ChelemAction | PoigneeAction | PlayAction,
    Field(discriminator="kind"),
]


# ---------------------------------------------------------------- table events


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
    points: list[float]  # card points in tricks so far: [taker's side, defence], Excuse included


class TurnEvent(Model):
    """Public: whose turn it is, and until when (ms since the epoch) if timed."""

    kind: Literal["turn"] = "turn"
    seat: Seat
    phase: PhaseName
    deadline_ms: int | None = None


class CancelledEvent(Model):
    kind: Literal["cancelled"] = "cancelled"
    reason: Literal["all_pass", "petit_sec"]


class ScoreEvent(Model):
    kind: Literal["score"] = "score"
    deal_number: int
    sheet: ScoreSheet
    totals: list[Number]


class RecordEvent(Model):
    """Public after the deal: its full ``tarot-record/1`` (RECORD.md)."""

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
    totals: list[Number]


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
    | TableOverEvent,
    Field(discriminator="kind"),
]


# ---------------------------------------------------------------- client -> server


class Request(Model):
    """Every client message may carry an ``id``; its answer then carries it as ``re``."""

    id: RequestId | None = None


class Hello(Request):
    type: Literal["hello"] = "hello"
    protocol: int
    client: str = Field(default="", max_length=100)


class ListTables(Request):
    type: Literal["list_tables"] = "list_tables"


class CreateTable(Request):
    type: Literal["create_table"] = "create_table"
    options: TableOptions = Field(default_factory=TableOptions)


class Join(Request):
    """Take a seat: a given one, or any free one when ``seat`` is null."""

    type: Literal["join"] = "join"
    table_id: TableId
    seat: Seat | None = None
    name: str = Field(default="", max_length=40)
    invite: str | None = Field(default=None, max_length=64)


class Watch(Request):
    type: Literal["watch"] = "watch"
    table_id: TableId
    invite: str | None = Field(default=None, max_length=64)


class Resume(Request):
    """Come back to a seat with its token; ``last_seq`` is the last event seen."""

    type: Literal["resume"] = "resume"
    token: str = Field(min_length=1, max_length=128)
    last_seq: int | None = Field(default=None, ge=0)


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


class Ping(Request):
    type: Literal["ping"] = "ping"


ClientMessage = Annotated[
    Hello
    | ListTables
    | CreateTable
    | Join
    | Watch
    | Resume
    | Start
    | Act
    | NextDeal
    | Leave
    | Ping,
    Field(discriminator="type"),
]


# ---------------------------------------------------------------- server -> client


class Reply(Model):
    """The answer to one request: ``re`` is the request's ``id``, left out when it had none."""

    re: RequestId | None = None

    @model_serializer(mode="wrap")
    def _drop_null_re(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        re = data.pop("re")
        if re is not None:
            data["re"] = re  # last: ``type`` stays first, as in every other message
        return data


class Welcome(Reply):
    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    server: str


class Tables(Reply):
    type: Literal["tables"] = "tables"
    tables: list[TableSummary]


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


class Bye(Model):
    """The server closes this connection: ``replaced``, ``shutdown``, ``abuse``..."""

    type: Literal["bye"] = "bye"
    reason: str
    message: str = ""


ServerMessage = Annotated[
    Welcome
    | Tables
    | TableCreated
    | Joined
    | Watching
    | Snapshot
    | Event
    | YourTurn
    | Left
    | Pong
    | Ack
    | Error
    | Bye,
    Field(discriminator="type"),
]

CLIENT_MESSAGES: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
REQUEST_ID: TypeAdapter[RequestId] = TypeAdapter(RequestId)
SERVER_MESSAGES: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
EVENTS: TypeAdapter[EventModel] = TypeAdapter(EventModel)
