"""A deal's review (``ai.review``, ``tarot review --json``) as the server sends it.

Each decision of the finished deal, in the order of its record, with the
value of the choice made and of the best one in the deciding seat's points,
the loss and its mark; the summary per seat. docs/PROTOCOL.md, ``deal_review``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Model, Seat

DecisionKind = Literal["bid", "discard", "chelem", "poignee", "card"]
Label = Literal["forced", "best", "good", "inaccuracy", "mistake", "blunder"]


class Hindsight(Model):
    """With every hand known: the exact best card of the last tricks (the solver)."""

    best: str
    best_score: float
    chosen_score: float
    loss: float


class ReviewedDecision(Model):
    index: int = Field(ge=0)
    seat: Seat
    kind: DecisionKind
    trick: int | None = Field(ge=1, le=18)  # cards and poignees
    chosen: str
    best: str
    chosen_score: float | None  # None for a forced card (not searched)
    best_score: float | None
    loss: float = Field(ge=0)
    noise: float = Field(ge=0)
    samples: int = Field(ge=0)
    label: Label
    taker: bool  # valued as the taker (a bid is valued as the contract)
    options: dict[str, float]  # every option's value, best first
    taker_score: float | None  # the taker's expected score after this decision (the graph)
    reason: str  # in English; "" when none
    # The reason as a code of ai.review_reasons.ENGLISH and the values it names
    # (card codes, seats, contract and suit names, scores): a client's own words.
    reason_code: str | None = None
    reason_args: dict[str, str | int | float] = Field(default_factory=dict)
    hindsight: Hindsight | None = None


class SeatSummary(Model):
    decisions: int
    average_loss: float
    total_loss: float
    labels: dict[Label, int]


class Review(Model):
    budget_ms: float
    seed: int
    seats: list[Seat]
    thresholds: dict[str, float]
    decisions: list[ReviewedDecision]
    summary: dict[str, SeatSummary]
