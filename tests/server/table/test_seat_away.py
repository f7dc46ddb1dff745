"""A seat whose player dropped says when its grace period ends (issue 27.5): the
browser counts it down, then says the AI plays for that player. Additive: a seat
that is not away serializes exactly as before (no ``away_until_ms`` key)."""

from __future__ import annotations

import json

from protocol import models as m
from protocol.codecs import JSON
from server.table import transitions as tr
from server.table.data import TableData
from server.table.seating import JoinRequest, join

from .wired import wired

NOW = 1_000_000


def seated() -> TableData:
    data = TableData(table_id="away", options=m.TableOptions(grace_seconds=60))
    return join(data, None, JoinRequest(name="Chloé", now_ms=NOW, seat=1)).data


def test_a_dropped_seat_says_when_its_grace_ends_and_a_present_one_says_nothing() -> None:
    data = seated()
    assert data.seat_info(1).away_until_ms is None
    change = tr.dropped(data, None, 1, NOW + 5)
    [(_, stored)] = change.events
    event = wired(stored)
    assert isinstance(event, m.SeatChanged)
    assert event.seat.away_until_ms == NOW + 5 + 60_000
    assert change.data.summary().seats[1].away_until_ms == NOW + 5 + 60_000
    back = tr.present(change.data, None, 1)
    assert back.data.seat_info(1).away_until_ms is None


def test_a_seat_not_away_is_sent_as_before() -> None:
    info = seated().seat_info(1)
    frame = JSON.encode(m.Event(table_id="away", seq=1, event=m.SeatChanged(seat=info)))
    wire = json.loads(frame)
    assert wire["event"]["seat"] == {
        "seat": 1,
        "occupant": "human",
        "name": "Chloé",
        "connected": True,
    }
