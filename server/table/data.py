"""What a table is in the store: options, seats, the series, the current deal.

The deal is kept as its secret seed and the actions applied so far, never as
a pickled state: any node rebuilds the engine state by replaying them
(``deal_state``). ``version`` grows by one with every committed change.

Each action is stored as the game record's entry for it (``engine.action_entry``:
bid names and card codes, docs/RECORD.md), not as the wire message that asked for
it, so the protocol can change without a migration of what Redis holds; the
events likewise (``StoredEvent``, in the form of ``stored_events.py``).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any, Literal, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

import engine
from protocol import models as m
from protocol.names import PLAYER_NAME_MAX, TABLE_NAME_MAX, sanitize


class Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SeatData(Data):
    occupant: Literal["human", "ai", "empty"] = "empty"
    name: str = ""
    token_hash: str | None = None
    dropped_at_ms: int | None = None  # the human's connection was lost then (None: present)
    session: int = 0  # grows with each join or resume: older connections of the seat must go
    node: str = ""  # the node whose connection holds the seat ("": not known)
    # The account of a player who took the seat signed in (None: a guest): the deal is
    # stored with it (rated), and the account may resume the seat without its token.
    account_id: int | None = None
    # An account that left this seat for good while the table was playing, and the deal
    # (its index among the deals dealt, as ``TableData.dealt``) that was in progress, or
    # the next one when it left between deals: a rated quick-play table's deal is rated
    # with that account last (docs/RATINGS.md, "Quick play"), the AI playing its seat.
    left_account_id: int | None = None
    left_deal: int | None = None

    # Names are checked on the wire (protocol/names.py); a table stored before that still
    # loads, its names made showable.
    @field_validator("name")
    @classmethod
    def _stored_name(cls, name: str) -> str:
        return sanitize(name, PLAYER_NAME_MAX)


class DealData(Data):
    number: int  # 1-based place in the series: a deal dealt again keeps the cancelled one's
    dealer: int
    seed: str  # secret until the deal's record is published
    # engine.action_entry of each action: {"seat": s, "bid": "garde"}, {"seat": s, "play": "KH"}
    actions: list[dict[str, Any]] = Field(default_factory=list)
    started_ms: int = 0  # when it was dealt (0: stored before this was kept)

    # A table stored before actions were record entries held wire actions; it loads as
    # entries, so a node upgraded mid-deal plays it on (and compares it) like a new one.
    @field_validator("actions", mode="before")
    @classmethod
    def _stored_actions(cls, actions: Any) -> Any:
        if not isinstance(actions, list):
            return actions
        return [_entry_of_wire(a) if isinstance(a, dict) and "action" in a else a for a in actions]


class DuplicateDeal(Data):
    """A deal of a duplicate event this table plays: its index in the event, dealer, seed."""

    index: int
    dealer: int
    seed: str  # secret: the event's cards (server.duplicate.dealing)


class DuplicateTable(Data):
    """A table playing deals of a duplicate event (issue 24, docs/DUPLICATE.md).

    Its deals are the event's, in order (``deals``), never fresh seeds; each seat
    plays for an entry of the event (``entries``: None for an AI seat not entered
    yet). A seat whose entrant left stops at the deal it left in (``stopped``: the
    table's deal number, which is the count of the event's deals dealt; the AI
    finishes that one for them, the later ones count for nobody).
    """

    event_id: int
    kind: Literal["robot", "tables"]
    deals: list[DuplicateDeal]
    entries: list[int | None] = Field(default_factory=lambda: list[int | None]([None] * 4))
    stopped: list[int | None] = Field(default_factory=lambda: list[int | None]([None] * 4))
    closes_ms: int = 0  # when the event closes: its deals are secret until then
    dealt: int = 0  # how many of ``deals`` were dealt (a deal all passed is one of them)


class RematchData(Data):
    """A finished table's rematch (server/table/rematch.py): the new table, and each seat's
    answer (None: not yet, or not a human's)."""

    table_id: str
    answers: list[bool | None] = Field(default_factory=lambda: list[bool | None]([None] * 4))
    deadline_ms: int | None = None  # the offer closes then (None: stored before it did)
    timed_out: list[int] = Field(default_factory=list)  # closed: the seats that did not answer


class StoredEvent(NamedTuple):
    """One event of a table's log: its number, who sees it, its body (JSON values) in the
    log's storage form (``stored_events.py``; from a table stored before, a wire body).

    A tuple, not a model: a node holds thousands (the memory store keeps
    ``EVENT_LOG_LIMIT`` a table), and the garbage collector untracks a tuple
    of plain values (an int, a tuple of ints, a dict of strings and numbers)
    after one look, where a pydantic model is three tracked objects scanned
    by every collection: at 200 tables they were most of the heap, and the
    collections' 10-90 ms pauses grew with it. The events are made by the
    server (``commits.committed_update``); those read back from Redis are
    checked on the way in (``model_validate_json``).
    """

    seq: int
    audience: tuple[int, ...] | None  # None: everyone at the table
    event: dict[str, Any]

    def model_dump_json(self) -> str:
        return json.dumps(
            {"seq": self.seq, "audience": self.audience, "event": self.event},
            separators=(",", ":"),
            ensure_ascii=False,
        )

    @classmethod
    def model_validate_json(cls, raw: str | bytes) -> StoredEvent:
        checked = _STORED_EVENT.validate_json(raw)
        audience = checked.audience
        return cls(checked.seq, None if audience is None else tuple(audience), checked.event)


class _StoredEventJson(Data):
    """What a stored event's JSON must hold (the store is read back, not trusted blindly)."""

    seq: int
    audience: list[int] | None
    event: dict[str, Any]


_STORED_EVENT = TypeAdapter(_StoredEventJson)


class TableData(Data):
    table_id: str
    options: m.TableOptions
    invite: str | None = None
    created_ms: int = 0
    status: Literal["waiting", "playing", "finished"] = "waiting"
    version: int = 0
    seq: int = 0
    seats: list[SeatData] = Field(default_factory=lambda: [SeatData() for _ in range(4)])
    dealer: int = 0  # the next deal's dealer
    totals: list[m.Points] = Field(default_factory=lambda: list[m.Points]([0, 0, 0, 0]))
    played: int = 0  # deals scored (cancelled ones excluded)
    # Deals dealt, cancelled ones included: the current deal is the table's ``dealt - 1``th
    # from 0, the key of its row in the history database (a re-deal keeps ``number``).
    dealt: int = 0
    deal: DealData | None = None
    ready: list[bool] = Field(default_factory=lambda: [False] * 4)
    deal_over_ms: int | None = None  # when the current deal ended
    next_deal_seconds: float = 30.0  # the wait between deals, from the settings of its creator
    next_deal_ms: int | None = None  # between played deals: the next starts then at the latest
    turn_deadline_ms: int | None = None
    phase: m.PhaseName | None = None  # the current deal's, kept here for the lobby of any node
    # The ids of the commits that made this version and the few before it, newest last. A
    # commit must name its parent (``parent``): a store that lost commits (a Redis failover)
    # refuses changes built on them, and a node can tell an update that does not follow
    # what it has (see ``TableRuntime.apply_update``). Empty for tables stored before.
    commits: list[str] = Field(default_factory=list)
    key_hash: str | None = None  # of the key of the create_table that made it (request_keys)
    duplicate: DuplicateTable | None = None  # a table of a duplicate event's deals
    rematch: RematchData | None = None  # once finished, the rematch offered (rematch.py)

    @field_validator("options", mode="before")
    @classmethod
    def _stored_name(cls, options: Any) -> Any:
        if isinstance(options, dict) and isinstance(options.get("name"), str):
            return {**options, "name": sanitize(options["name"], TABLE_NAME_MAX)}
        return options

    @property
    def commit(self) -> str:
        return self.commits[-1] if self.commits else ""

    @property
    def parent(self) -> str:
        return self.commits[-2] if len(self.commits) > 1 else ""

    def commit_at(self, version: int) -> str | None:
        """The id of the commit that made an earlier ``version``, if it is recent enough."""
        index = len(self.commits) - 1 - (self.version - version)
        return self.commits[index] if 0 <= index < len(self.commits) else None

    def seat_info(self, seat: int) -> m.SeatInfo:
        s = self.seats[seat]
        dropped = s.dropped_at_ms if s.occupant == "human" else None
        return m.SeatInfo(
            seat=seat,
            occupant=s.occupant,
            name=s.name,
            connected=s.occupant == "human" and dropped is None,
            away_until_ms=None
            if dropped is None
            else int(dropped + self.options.grace_seconds * 1000),
        )

    def summary(self, spectators: int = 0) -> m.TableSummary:
        return m.TableSummary(
            table_id=self.table_id,
            options=self.options,
            seats=[self.seat_info(i) for i in range(len(self.seats))],
            status=self.status,
            phase=self.phase,
            deal_number=self.deal.number if self.deal else 0,
            totals=self.totals,
            spectators=spectators,
            next_deal_ms=self.next_deal_ms if self.status == "playing" else None,
        )

    def with_seat(self, seat: int, **changes: Any) -> list[SeatData]:
        seats = list(self.seats)
        seats[seat] = seats[seat].model_copy(update=changes)
        return seats


COMMITS_KEPT = 8


def new_commit_id() -> str:
    return secrets.token_hex(8)


def next_commits(commits: list[str]) -> list[str]:
    """The ``commits`` of the next version: a new id after the last few."""
    return [*commits[-(COMMITS_KEPT - 1) :], new_commit_id()]


def new_table_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def new_token(table_id: str) -> tuple[str, str]:
    """A seat token (``table_id.secret``) and the hash the store keeps of it."""
    token = f"{table_id}.{secrets.token_urlsafe(24)}"
    return token, hash_token(token)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def table_of_token(token: str) -> str:
    return token.split(".", 1)[0]


def new_seed() -> str:
    return secrets.token_hex(16)


def deal_state(deal: DealData) -> engine.Deal:
    """Rebuild the engine state of a deal from its seed and actions."""
    state = engine.new_deal(deal.dealer, bytes.fromhex(deal.seed))
    for entry in deal.actions:
        engine.apply_in_place(state, engine.entry_action(entry))
    return state


# What each kind of the old wire action (``{"kind": "bid", "contract": ...}``) named the
# value that its record entry holds. Frozen here: the protocol may change, old tables not.
_WIRE_FIELDS = {
    "bid": ("bid", "contract"),
    "discard": ("discard", "cards"),
    "chelem": ("chelem", "announce"),
    "poignee": ("poignee", "cards"),
    "play": ("play", "card"),
}


def _entry_of_wire(stored: dict[str, Any]) -> Any:
    """The record entry of an action stored the old way, ``{"seat": s, "action": {...}}``."""
    action = stored["action"]
    fields = _WIRE_FIELDS.get(str(action.get("kind"))) if isinstance(action, dict) else None
    if fields is None:
        raise ValueError(f"not a stored action: {stored!r}")
    key, field = fields
    return {"seat": stored.get("seat"), key: action.get(field)}


D = TypeVar("D", bound=BaseModel)
# A frozen model's own ``__setattr__`` refuses; its slots' and ``__dict__``'s descriptors set
# them straight, without ``object.__setattr__``'s look-up of each name (a quarter less a copy).
_set_dict = vars(BaseModel)["__dict__"].__set__
_set_extra = vars(BaseModel)["__pydantic_extra__"].__set__
_set_fields_set = vars(BaseModel)["__pydantic_fields_set__"].__set__
_set_private = vars(BaseModel)["__pydantic_private__"].__set__


def replaced(data: D, update: dict[str, Any]) -> D:
    """``data.model_copy(update=update)`` without ``copy.copy``'s dispatch on each part
    (pydantic 2.14, a table's data: 1.1 µs against 2.1, measured side by side); it checks
    nothing either."""
    new = object.__new__(type(data))
    _set_dict(new, {**data.__dict__, **update})
    _set_extra(new, data.__pydantic_extra__)
    _set_fields_set(new, data.__pydantic_fields_set__ | update.keys())
    _set_private(new, data.__pydantic_private__)
    return new
