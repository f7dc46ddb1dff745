"""A table as the lobby and its players see it: options, seats, summary."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..names import TableName
from .base import (
    AiLevel,
    Model,
    PhaseName,
    Points,
    Seat,
    TableId,
    WithoutNulls,
)


class TableOptions(Model):
    name: TableName = ""  # cleaned or refused: protocol/names.py
    deals: int | None = Field(default=1, ge=1, le=1000)  # None: until everyone leaves
    ai_level: AiLevel = "basic"
    # Numbers keep the form they were given (30, not 30.0; 7.5 stays).
    turn_seconds: Points | None = Field(default=None, gt=0, le=3600)  # None: no limit
    grace_seconds: Points = Field(default=60, ge=0, le=3600)
    private: bool = False


class SeatInfo(WithoutNulls):
    seat: Seat
    occupant: Literal["human", "ai", "empty"]
    name: str = ""
    connected: bool = False  # a human seat whose player is online
    # A human seat whose player is away (not connected): when the grace period ends, in the
    # server's clock (ms since the epoch); from then on the AI plays its turns until the
    # player comes back. Left out for every other seat.
    away_until_ms: int | None = None


class TableSummary(Model):
    table_id: TableId
    options: TableOptions
    seats: list[SeatInfo]
    status: Literal["waiting", "playing", "finished"]
    phase: PhaseName | None = None
    deal_number: int = 0
    spectators: int = 0
    totals: list[Points] = Field(default_factory=lambda: list[Points]([0, 0, 0, 0]))
    next_deal_ms: int | None = None  # between deals: the next one starts then at the latest
