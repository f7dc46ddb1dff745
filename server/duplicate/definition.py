"""What a duplicate event is, as data: its secret seed, deals, window, kind and scoring.

An event is checked once, when it is made: a ``DuplicateEvent`` that exists is a
valid one (``BadEvent`` otherwise, naming the bad field). Its deals follow from
its seed (``dealing``); where it stands in its window is a function of the time
handed in (``event_phase``), never of a clock read here. docs/DUPLICATE.md.

Two kinds (issue 24):

- ``robot``: each entrant plays every deal alone, in seat ``ROBOT_SEAT``, with
  three AI of level ``ROBOT_AI_LEVEL`` in the other seats; the entrants of one
  event are then all compared in that seat.
- ``tables``: any table of four (humans and AI) seated through the event plays
  its deals, each player keeping one seat; each seat is compared across tables.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, get_args

from .errors import BadEvent

EventKind = Literal["robot", "tables"]
ScoringKind = Literal["matchpoints", "datum"]
EventPhase = Literal["upcoming", "open", "closed"]
EVENT_KINDS: tuple[EventKind, ...] = get_args(EventKind)
SCORINGS: tuple[ScoringKind, ...] = get_args(ScoringKind)

ROBOT_SEAT = 0  # where a robot event's entrant sits, every deal
ROBOT_AI_LEVEL = "strong"  # the three AI around them: the same for every entrant
SEED_BYTES_MIN = 16  # 128 bits: the deals cannot be guessed from the ones already seen
SEED_BYTES_MAX = 64
DEALS_MAX = 64
EVENT_NAME_MAX = 60
# Characters a name may not hold (as protocol.names refuses them, without its pydantic):
# control, format (bidirectional overrides), surrogate, private, unassigned, line breaks.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


@dataclass(frozen=True, slots=True)
class DuplicateEvent:
    """One event's definition; the seed is secret until the event closes.

    >>> from datetime import UTC, datetime
    >>> day = datetime(2026, 12, 1, tzinfo=UTC)
    >>> event = DuplicateEvent("Daily", bytes(16), 20, day, day.replace(day=2))
    >>> event.kind, event.scoring, event_phase(event, datetime(2026, 12, 1, 12, tzinfo=UTC))
    ('robot', 'matchpoints', 'open')
    """

    name: str
    seed: bytes
    deals: int
    opens: datetime
    closes: datetime
    kind: EventKind = "robot"
    scoring: ScoringKind = "matchpoints"

    def __post_init__(self) -> None:
        _check_name(self.name)
        _check_seed(self.seed)
        if isinstance(self.deals, bool) or not isinstance(self.deals, int):
            raise BadEvent(f"an event's deals are a whole number, not {self.deals!r}")
        if not 1 <= self.deals <= DEALS_MAX:
            raise BadEvent(f"an event has 1-{DEALS_MAX} deals, not {self.deals}")
        _check_window(self.opens, self.closes)
        if self.kind not in EVENT_KINDS:
            raise BadEvent(f"an event's kind is one of {', '.join(EVENT_KINDS)}, not {self.kind!r}")
        if self.scoring not in SCORINGS:
            raise BadEvent(
                f"an event's scoring is one of {', '.join(SCORINGS)}, not {self.scoring!r}"
            )

    def __repr__(self) -> str:  # the seed is secret: never in a log line or a traceback
        return (
            f"DuplicateEvent(name={self.name!r}, deals={self.deals}, opens={self.opens!r}, "
            f"closes={self.closes!r}, kind={self.kind!r}, scoring={self.scoring!r})"
        )


def event_phase(event: DuplicateEvent, now: datetime) -> EventPhase:
    """``upcoming`` before ``opens``, ``open`` from ``opens`` until ``closes``, then ``closed``."""
    if now < event.opens:
        return "upcoming"
    return "open" if now < event.closes else "closed"


def _check_name(name: object) -> None:
    if not isinstance(name, str) or not name.strip():
        raise BadEvent("an event needs a name")
    if len(name) > EVENT_NAME_MAX:
        raise BadEvent(f"an event's name has at most {EVENT_NAME_MAX} characters, not {len(name)}")
    for position, char in enumerate(name, 1):
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise BadEvent(
                f"the event's name has a control or invisible character (U+{ord(char):04X})"
                f" at position {position}"
            )


def _check_seed(seed: object) -> None:
    if not isinstance(seed, bytes):
        raise BadEvent(f"an event's seed is bytes, not {type(seed).__name__}")
    if not SEED_BYTES_MIN <= len(seed) <= SEED_BYTES_MAX:
        raise BadEvent(
            f"an event's seed has {SEED_BYTES_MIN}-{SEED_BYTES_MAX} bytes, not {len(seed)}"
        )


def _check_window(opens: object, closes: object) -> None:
    for name, moment in (("opens", opens), ("closes", closes)):
        if not isinstance(moment, datetime) or moment.utcoffset() is None:
            raise BadEvent(f"an event's {name} is a datetime with its time zone, not {moment!r}")
    assert isinstance(opens, datetime) and isinstance(closes, datetime)
    if not opens < closes:
        raise BadEvent(f"an event closes after it opens, not at {closes.isoformat()}")
