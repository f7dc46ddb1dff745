"""What one seat may know of a deal: its view, its legal choices, the score sheet."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import (
    Cancellation,
    CardCode,
    ContractCode,
    Model,
    PhaseName,
    PoigneeLevelName,
    Points,
    Seat,
    WithoutNulls,
)


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


class BonusLine(WithoutNulls):
    kind: Literal["petit_au_bout", "poignee", "chelem"]
    side: Literal["taker", "defence"]
    points: Points
    seat: Seat | None = None
    detail: str | None = None


class ScoreSheet(WithoutNulls):
    """The score sheet of docs/RECORD.md (the same JSON as ``tarot score`` prints)."""

    status: Literal["played", "cancelled"]
    scores: list[Points]
    reason: Cancellation | None = None
    taker: Seat | None = None
    contract: ContractCode | None = None
    bouts: int | None = None
    points: Points | None = None
    target: int | None = None
    made: bool | None = None
    multiplier: int | None = None
    contract_score: Points | None = None
    per_defender: Points | None = None
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
    points: list[Points]  # card points in tricks so far: [taker's side, defence]
    tricks_won: list[int]
    legal: LegalChoices | None
    sheet: ScoreSheet | None
    taker_bouts: int = 0  # bouts in the taker's tricks so far (R15)
    target: int = 56  # the points those bouts ask for
    discard_points: Points | None = None  # the taker's own view: the discard's points (R6)
