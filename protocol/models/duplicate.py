"""Duplicate events on the wire (protocol 2, issue 24; docs/PROTOCOL.md section 18).

A duplicate event deals the same cards to everyone; a result is compared with
those who held the same cards in the same seat. A client lists the events
(``duplicate_list``), enters one (``duplicate_enter``, signed in, once), plays
its deals in order (``duplicate_play``: the table arrives as ``joined`` and its
events, as any table's), and asks for results (``duplicate_show``), which the
server shows only to whom may see them (``results_hidden``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from .base import Model, Points, Seat, StoredId, TableId, WithoutNulls
from .envelope import Reply, Request

EventId = StoredId
DealIndex = int


class DuplicateList(Request):
    """The events open now or soon, and those closed in the last days."""

    type: Literal["duplicate_list"] = "duplicate_list"


class DuplicateEnter(Request):
    """Enter an open event (signed in; once per account)."""

    type: Literal["duplicate_enter"] = "duplicate_enter"
    event_id: EventId


class DuplicatePlay(Request):
    """Play your next deal of an event you entered.

    A ``robot`` event seats you at a new table (seat 0, three AI) for that deal.
    A ``tables`` event seats you at ``table_id`` (a table of the event waiting for
    its players), or at a new one when it is left out; ``start`` starts it, and the
    table plays every deal of the event.
    """

    type: Literal["duplicate_play"] = "duplicate_play"
    event_id: EventId
    table_id: TableId | None = None


class DuplicateShow(Request):
    """An event's results: its standings (no ``deal`` nor ``entry``), every result of one
    deal (``deal``, from 0), or one entrant's results (``entry``)."""

    type: Literal["duplicate_show"] = "duplicate_show"
    event_id: EventId
    deal: DealIndex | None = Field(default=None, ge=0, le=63)
    entry: StoredId | None = None

    @model_validator(mode="after")
    def _one_view(self) -> DuplicateShow:
        if self.deal is not None and self.entry is not None:
            raise ValueError("ask for one deal or one entry, not both")
        return self


class EventInfo(WithoutNulls):
    """An event as the asker sees it: ``entry_id`` and ``played`` are the asker's own."""

    event_id: EventId
    name: str
    kind: Literal["robot", "tables"]
    scoring: Literal["matchpoints", "datum"]
    deals: int
    opens_ms: int
    closes_ms: int
    phase: Literal["upcoming", "open", "closed"]
    scored: bool = False
    entry_id: int | None = None  # the asker's entry, if they entered
    played: int = 0  # how many deals the asker has played


class StandingInfo(WithoutNulls):
    """One entrant's place once the event is scored; ``name`` is left out for an AI."""

    rank: int
    entry_id: int
    name: str | None = None
    ai_level: str | None = None
    mark: float  # the mean percentage (matchpoints) or points above the datum
    played: int


class ResultInfo(WithoutNulls):
    """One result: who, the deal and seat, the contract (left out: passed out), the sheet's
    score for the seat, its mark once scored, and the stored deal it was (its record:
    ``GET /api/deals/{table_id}/{deal_number}``)."""

    entry_id: int
    name: str | None = None
    ai_level: str | None = None
    deal: DealIndex
    seat: Seat
    contract: str | None = None
    score: Points
    mark: float | None = None
    table_id: str | None = None
    deal_number: int | None = None


class OwnStanding(Model):
    """The asker's running standing: each deal played against those who played it before."""

    mark: float | None
    played: int
    deals: int


class DuplicateEvents(Reply):
    type: Literal["duplicate_events"] = "duplicate_events"
    events: list[EventInfo]


class DuplicateEntered(Reply):
    type: Literal["duplicate_entered"] = "duplicate_entered"
    event: EventInfo


class DuplicateResults(Reply):
    """What ``duplicate_show`` asked: ``standings`` (closed and scored), or ``results`` of
    one ``deal`` or one ``entry``; ``own`` is the asker's running standing, if entered."""

    type: Literal["duplicate_results"] = "duplicate_results"
    event: EventInfo
    deal: DealIndex | None = None
    entry: int | None = None
    standings: list[StandingInfo] | None = None
    results: list[ResultInfo] | None = None
    own: OwnStanding | None = None
