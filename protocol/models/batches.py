"""Version 2's folded frames: one ``events`` frame per reader per commit (issue 28).

A commit's events reach each connection of version 2 in one frame, with the
``your_turn`` it makes folded in for the seat to act and the ``re`` of the
request that made it (instead of a separate ``ack``). Version 1 connections
get the separate ``event``, ``your_turn`` and ``ack`` frames as before.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import SerializerFunctionWrapHandler, model_serializer

from .base import Model, RequestId, TableId
from .events import EventModel
from .views import LegalChoices


class TurnOffer(Model):
    """``your_turn`` folded into an ``events`` frame or a ``snapshot``: it is your turn at
    event ``seq``; here is what you may do."""

    seq: int
    legal: LegalChoices
    deadline_ms: int | None = None


class NumberedEvent(Model):
    """One event of a batch: ``hidden`` where it is not yours to see."""

    seq: int
    event: EventModel


class Events(Model):
    """Version 2: the events of one commit (numbered in order, maybe none), the turn they
    give you (only to the seat to act) and the ``re`` of your request that made them."""

    type: Literal["events"] = "events"
    table_id: TableId
    events: list[NumberedEvent]
    your_turn: TurnOffer | None = None
    re: RequestId | None = None

    @model_serializer(mode="wrap")
    def _drop_nulls(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for name in ("your_turn", "re"):
            if data[name] is None:
                del data[name]
        return data
