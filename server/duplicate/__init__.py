"""Duplicate tarot events without I/O: definitions, their deals, and scoring (issue 24).

Everyone in an event holds the same cards in the same seats, and a result is
compared only with the others in its deal and seat. This package is pure like
``server.table``: no asyncio, no database, no network, no clock (the time is
handed in), no randomness (the event's seed is). It sits beside ``server.table``
at the bottom of the server's layers and imports only the engine: the history
database (``server.history``) stores events and scores them with it, and the
node and the API will serve them. It is not in ``engine``: how a competition
compares results is no rule of a deal of tarot, as the ratings' model is not.

- ``definition``: ``DuplicateEvent`` (checked when made: ``BadEvent``), its phase.
- ``dealing``: each deal's seed and dealer, derived from the event's seed.
- ``matchpoints``, ``datum``: the two ways to mark one deal and seat's results.
- ``standings``: ``score_event``, every result's mark and the entrants' ranks.
- ``running``: an entrant's standing while the event is open, deal by deal.
- ``rating``: the duplicate rating, each finished event as pairwise results.

docs/DUPLICATE.md explains the scoring with a worked example.

>>> from server.duplicate import DealResult, score_event
>>> results = [DealResult("ann", 0, 0, 120), DealResult("bob", 0, 0, -40)]
>>> [(s.rank, s.entrant, float(s.mark)) for s in score_event(results, ["ann", "bob"], 2).standings]
[(1, 'ann', 50.0), (2, 'bob', 0.0)]
"""

from __future__ import annotations

from .datum import datum_against, marks_above_datum
from .dealing import EventDeal, event_deal, event_deals
from .definition import (
    DEALS_MAX,
    EVENT_KINDS,
    ROBOT_AI_LEVEL,
    ROBOT_SEAT,
    SCORINGS,
    DuplicateEvent,
    EventKind,
    EventPhase,
    ScoringKind,
    event_phase,
)
from .errors import BadEvent, BadResults, DuplicateError
from .matchpoints import (
    SINGLE_RESULT_PERCENT,
    matchpoints,
    percentage,
    percentage_against,
    percentages,
)
from .rating import K_DEAL, rate_event
from .running import FieldSummary, mark_against, running_standing
from .standings import (
    NOT_PLAYED_PERCENT,
    DealResult,
    EventScores,
    ScoredResult,
    SeatMarks,
    Standing,
    score_event,
    score_halves,
)

__all__ = [
    "DEALS_MAX",
    "EVENT_KINDS",
    "K_DEAL",
    "NOT_PLAYED_PERCENT",
    "ROBOT_AI_LEVEL",
    "ROBOT_SEAT",
    "SCORINGS",
    "SINGLE_RESULT_PERCENT",
    "BadEvent",
    "BadResults",
    "DealResult",
    "DuplicateError",
    "DuplicateEvent",
    "EventDeal",
    "EventKind",
    "EventPhase",
    "EventScores",
    "FieldSummary",
    "ScoredResult",
    "ScoringKind",
    "SeatMarks",
    "Standing",
    "datum_against",
    "event_deal",
    "event_deals",
    "event_phase",
    "mark_against",
    "marks_above_datum",
    "matchpoints",
    "percentage",
    "percentage_against",
    "percentages",
    "rate_event",
    "running_standing",
    "score_event",
    "score_halves",
]
