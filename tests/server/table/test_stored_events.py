"""The stored form of each event makes the wire body the models made before (issue 26).

A table's log holds its events in the server's storage form (server/table/stored_events.py);
``protocol.frames.wire_event`` makes the wire body as it is sent. That body must be the
JSON the event's model dumps, keys in the model's order (the bytes sent depend on it):
each engine event of random deals against ``protocol.convert.event_model``, and each
table event against the model it was built as before.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from protocol import models as m
from protocol.convert import WIRE_EVENTS, event_model, sheet_model
from protocol.frames import wire_event
from server.table.stored_events import deal_event, name_of, table_event
from tests.protocol.test_event_models import events_of_a_deal


def same_bytes(body: dict[str, Any], model: m.Model) -> None:
    dumped = model.model_dump(mode="json")
    assert json.dumps(body) == json.dumps(dumped)  # the values and the keys' order


@pytest.mark.parametrize("seed", range(16))
def test_each_engine_event_is_sent_as_its_model(seed: int) -> None:
    for event in events_of_a_deal(seed):
        if isinstance(event, WIRE_EVENTS):
            stored = deal_event(event)
            assert json.loads(json.dumps(stored)) == stored  # plain JSON values
            same_bytes(wire_event(stored), event_model(event))
        elif isinstance(event, engine.DealScored):
            stored = table_event("deal_scored", number=3, sheet=event.sheet.to_json(), totals=[1])
            model = m.ScoreEvent(deal_number=3, sheet=sheet_model(event.sheet), totals=[1])
            same_bytes(wire_event(stored), model)


SEAT = {"seat": 2, "occupant": "human", "name": "Anna", "connected": False}
CHAT = {"seat": None, "name": "Dan", "account_id": None, "preset": None, "text": "hi"}
TABLE_EVENTS: list[tuple[dict[str, Any], m.Model]] = [
    (
        table_event("seat", **SEAT, away_until_ms=None),
        m.SeatChanged(seat=m.SeatInfo(**SEAT)),  # type: ignore[arg-type]
    ),
    (
        table_event("seat", **SEAT, away_until_ms=5),
        m.SeatChanged(seat=m.SeatInfo(**SEAT, away_until_ms=5)),  # type: ignore[arg-type]
    ),
    (table_event("deal_started", number=2, dealer=1), m.DealStartedEvent(deal_number=2, dealer=1)),
    (
        table_event("turn", seat=1, phase="play", deadline_ms=None),
        m.TurnEvent(seat=1, phase="play"),
    ),
    (
        table_event("record", number=1, record={"format": "x"}),
        m.RecordEvent(deal_number=1, record={"format": "x"}),
    ),
    (
        table_event("between_deals", next_number=3, deadline_ms=9, waiting=[0, 2]),
        m.BetweenDealsEvent(next_deal_number=3, deadline_ms=9, waiting_for=[0, 2]),
    ),
    (table_event("table_over", totals=[1, 2.5]), m.TableOverEvent(totals=[1, 2.5])),
    (
        table_event("chat", **CHAT, spectators_only=True),
        m.ChatEvent(**CHAT, spectators_only=True),  # type: ignore[arg-type]
    ),
    (
        table_event(
            "chat", seat=0, name="A", account_id=7, preset="hello", text=None, spectators_only=False
        ),
        m.ChatEvent(seat=0, name="A", account_id=7, preset="hello"),
    ),
    (
        table_event(
            "rematch", table_id="new", accepted=[0], declined=[], started=False, timed_out=[]
        ),
        m.RematchEvent(table_id="new", accepted=[0], declined=[]),
    ),
    (
        table_event(
            "rematch", table_id="new", accepted=[0], declined=[2], started=True, timed_out=[1, 3]
        ),
        m.RematchEvent(table_id="new", accepted=[0], declined=[2], started=True, timed_out=[1, 3]),
    ),
    (  # an open offer says when it closes
        table_event(
            "rematch",
            table_id="new",
            accepted=[0],
            declined=[],
            started=False,
            timed_out=[],
            deadline_ms=1_030_000,
        ),
        m.RematchEvent(table_id="new", accepted=[0], declined=[], deadline_ms=1_030_000),
    ),
    (
        table_event("ratings", number=4, changes=[[1, "Bob", 1500.0, 1512.3]]),
        m.RatingsEvent(
            deal_number=4,
            changes=[m.RatingChangeLine(seat=1, name="Bob", before=1500.0, after=1512.3)],
        ),
    ),
]


@pytest.mark.parametrize(("stored", "model"), TABLE_EVENTS, ids=lambda v: str(v)[:30])
def test_each_table_event_is_sent_as_its_model(stored: dict[str, Any], model: m.Model) -> None:
    same_bytes(wire_event(stored), model)


def test_a_body_stored_before_is_sent_as_it_was_and_named_by_its_kind() -> None:
    old = {"kind": "card", "seat": 0, "card": "KH"}
    assert wire_event(old) is old
    assert name_of(old) == "card" and name_of(table_event("turn")) == "turn"
    with pytest.raises(ValueError):
        wire_event({"v": 1, "e": "unknown"})
    with pytest.raises(ValueError):
        wire_event({"seat": 0})
