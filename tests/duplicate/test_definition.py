"""An event definition is checked when made: a bad one is a ``BadEvent`` naming the field."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from server.duplicate import DEALS_MAX, BadEvent, DuplicateEvent, event_phase

OPENS = datetime(2026, 12, 1, 8, tzinfo=UTC)
CLOSES = OPENS + timedelta(days=1)
GOOD: dict[str, Any] = {
    "name": "Daily robot",
    "seed": bytes(range(32)),
    "deals": 20,
    "opens": OPENS,
    "closes": CLOSES,
}


def test_a_good_event_defaults_to_robot_and_matchpoints() -> None:
    event = DuplicateEvent(**GOOD)
    assert (event.kind, event.scoring) == ("robot", "matchpoints")
    tables = DuplicateEvent(**{**GOOD, "kind": "tables", "scoring": "datum"})
    assert (tables.kind, tables.scoring) == ("tables", "datum")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": ""}, "needs a name"),
        ({"name": "   "}, "needs a name"),
        ({"name": "x" * 61}, "at most 60 characters, not 61"),
        ({"name": "evil\x1b[2J"}, r"control or invisible character \(U\+001B\) at position 5"),
        ({"name": "a\u202eb"}, r"\(U\+202E\) at position 2"),
        ({"seed": bytes(15)}, "16-64 bytes, not 15"),
        ({"seed": bytes(65)}, "16-64 bytes, not 65"),
        ({"seed": "00" * 16}, "seed is bytes, not str"),
        ({"deals": 0}, f"1-{DEALS_MAX} deals, not 0"),
        ({"deals": DEALS_MAX + 1}, f"not {DEALS_MAX + 1}"),
        ({"deals": 2.0}, "a whole number, not 2.0"),
        ({"deals": True}, "a whole number, not True"),
        ({"opens": datetime(2026, 12, 1)}, "opens is a datetime with its time zone"),
        ({"closes": "tomorrow"}, "closes is a datetime with its time zone, not 'tomorrow'"),
        ({"closes": OPENS}, "closes after it opens"),
        ({"closes": OPENS - timedelta(seconds=1)}, "closes after it opens"),
        ({"kind": "teams"}, "kind is one of robot, tables, not 'teams'"),
        ({"scoring": "imps"}, "scoring is one of matchpoints, datum, not 'imps'"),
    ],
)
def test_a_bad_definition_is_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(BadEvent, match=message) as refused:
        DuplicateEvent(**{**GOOD, **change})
    assert refused.value.code == "bad_event"


def test_the_window_may_be_given_in_any_time_zone() -> None:
    paris = timezone(timedelta(hours=1))
    event = DuplicateEvent(**{**GOOD, "opens": OPENS.astimezone(paris)})
    assert event_phase(event, OPENS) == "open"


def test_the_phase_follows_the_window() -> None:
    event = DuplicateEvent(**GOOD)
    assert event_phase(event, OPENS - timedelta(microseconds=1)) == "upcoming"
    assert event_phase(event, OPENS) == "open"
    assert event_phase(event, CLOSES - timedelta(microseconds=1)) == "open"
    assert event_phase(event, CLOSES) == "closed"


def test_the_seed_is_never_shown() -> None:
    event = DuplicateEvent(**GOOD)
    assert GOOD["seed"].hex() not in repr(event) and "seed" not in repr(event)
    assert repr(GOOD["seed"]) not in repr(event) and repr(GOOD["seed"]) not in str(event)
