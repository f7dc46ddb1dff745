"""An event's scores: every result's mark, each entrant's standing, the ranks (pure).

Results are compared within their deal and seat only (``matchpoints``, or the
alternative ``datum``). An entrant's standing is the mean of their marks over
*all* the event's deals: a deal they did not play counts ``NOT_PLAYED_PERCENT``
under matchpoints (0%: the worst there is, so leaving a deal out never beats
playing it, not even when a bottom is feared) and, under datum, the worst mark
any result of that deal made (0 if nobody played it).

Standings are exact: the marks are fractions (50 × 3 / 7...), added as integers
over one common denominator, so two entrants whose marks add up alike share a
rank whatever order they were added in (as floats, 5 + 200/3 and 30 + 125/3
differ in the last digit). Ties share the rank (1, 2, 2, 4), listed by entrant within it.

>>> from server.duplicate import DealResult, score_event
>>> scores = score_event(
...     [DealResult("ann", 0, 0, 30), DealResult("bob", 0, 0, -10), DealResult("eve", 0, 0, 30)],
...     ["ann", "bob", "eve"],
...     deals=1,
... )
>>> [(s.rank, s.entrant, float(s.mark)) for s in scores.standings]
[(1, 'ann', 75.0), (1, 'eve', 75.0), (3, 'bob', 0.0)]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, NamedTuple, TypeVar

from .datum import datum_marks
from .definition import ScoringKind
from .errors import BadResults
from .matchpoints import Score, matchpoint_marks

E = TypeVar("E", int, str)  # who entered: an entry id or a name (ordered and hashable)
NOT_PLAYED_PERCENT = 0
SEATS = 4
# Each scoring's marks of one deal and seat, from the scores in half points.
Marker = Callable[[Sequence[int]], tuple[list[int], int]]
MARKERS: dict[ScoringKind, Marker] = {"matchpoints": matchpoint_marks, "datum": datum_marks}


# Tuples, not dataclasses: an event of 10,000 entrants makes 200,000 of them, and
# the garbage collector's scans of that many objects were half of the scoring's time.
class DealResult(NamedTuple, Generic[E]):
    """What ``entrant`` scored on deal ``deal`` (from 0) in ``seat``: the sheet's score
    for that seat (0 for a deal every seat passed)."""

    entrant: E
    deal: int
    seat: int
    score: Score


class ScoredResult(NamedTuple, Generic[E]):
    """A result and its mark: its percentage (matchpoints) or its points above the datum."""

    entrant: E
    deal: int
    seat: int
    score: Score
    mark: float
    field: int  # how many results its deal and seat had, its own included


@dataclass(frozen=True, slots=True)
class SeatMarks(Generic[E]):
    """One deal and seat's results and their marks, in one order."""

    deal: int
    seat: int
    entrants: tuple[E, ...]
    scores: tuple[Score, ...]
    marks: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Standing(Generic[E]):
    """An entrant's place: ``mark`` is the mean over the event's deals, exact."""

    rank: int
    entrant: E
    mark: Fraction
    played: int  # deals played


@dataclass(frozen=True, slots=True)
class EventScores(Generic[E]):
    seats: tuple[SeatMarks[E], ...]  # by deal, then seat
    standings: tuple[Standing[E], ...]  # best first

    def results(self) -> Iterator[ScoredResult[E]]:
        """Every result with its mark, by deal and seat."""
        for group in self.seats:
            size = len(group.entrants)
            for entrant, score, mark in zip(group.entrants, group.scores, group.marks, strict=True):
                yield ScoredResult(entrant, group.deal, group.seat, score, mark, size)


@dataclass(slots=True)
class _Group(Generic[E]):
    """One deal and seat's results while they are gathered."""

    deal: int
    seat: int
    entrants: list[E] = field(default_factory=list)
    scores: list[Score] = field(default_factory=list)
    halves: list[int] = field(default_factory=list)


Marked = tuple[_Group[E], list[int], int]  # a group, its marks' numerators, their denominator


def score_event(
    results: Iterable[DealResult[E]],
    entrants: Iterable[E],
    deals: int,
    scoring: ScoringKind = "matchpoints",
) -> EventScores[E]:
    """Mark every result and rank every entrant (those with no result too) over ``deals``
    deals; ``BadResults`` if the results cannot be scored together."""
    if deals < 1:
        raise BadResults(f"an event has 1 deal or more, not {deals}")
    played = _distinct(entrants)  # each entrant's deals played, a bitset
    groups = _grouped(results, played, deals)
    marked = _marked(groups, scoring)
    unplayed = _unplayed_marks(marked, deals, scoring)
    common = math.lcm(*(den for _, _, den in marked), *(u.denominator for u in unplayed))
    totals = dict.fromkeys(played, 0)
    seats: list[SeatMarks[E]] = []
    for group, numerators, denominator in marked:
        scale = common // denominator
        for entrant, numerator in zip(group.entrants, numerators, strict=True):
            totals[entrant] += numerator * scale
        marks = tuple(numerator / denominator for numerator in numerators)
        seats.append(SeatMarks(group.deal, group.seat, *_frozen(group), marks))
    missed = [u.numerator * (common // u.denominator) for u in unplayed]
    if any(missed):
        for entrant, mask in played.items():
            totals[entrant] += sum(m for deal, m in enumerate(missed) if not mask >> deal & 1)
    return EventScores(tuple(seats), _ranked(totals, played, common * deals))


def _frozen(group: _Group[E]) -> tuple[tuple[E, ...], tuple[Score, ...]]:
    return tuple(group.entrants), tuple(group.scores)


def _distinct(entrants: Iterable[E]) -> dict[E, int]:
    played: dict[E, int] = {}
    for entrant in entrants:
        if entrant in played:
            raise BadResults(f"an entrant is listed twice: {entrant!r}")
        played[entrant] = 0
    return played


def _grouped(results: Iterable[DealResult[E]], played: dict[E, int], deals: int) -> list[_Group[E]]:
    """The results by deal and seat, each checked (``played`` filled in); deal then seat."""
    groups: dict[int, _Group[E]] = {}
    for entrant, deal, seat, score in results:
        mask = played.get(entrant)
        if mask is None:
            raise BadResults(f"a result of {entrant!r}, who did not enter")
        if not (0 <= deal < deals and 0 <= seat < SEATS):
            raise BadResults(f"no deal {deal} seat {seat} in an event of {deals} deals")
        if mask >> deal & 1:
            raise BadResults(f"two results of {entrant!r} on deal {deal}")
        played[entrant] = mask | 1 << deal
        group = groups.get(deal * SEATS + seat)
        if group is None:
            group = groups[deal * SEATS + seat] = _Group(deal, seat)
        group.entrants.append(entrant)
        group.scores.append(score)
        group.halves.append(score_halves(score))
    return [groups[key] for key in sorted(groups)]


def _marked(groups: list[_Group[E]], scoring: ScoringKind) -> list[Marked[E]]:
    """Each group with its marks: numerators over one denominator."""
    marker = MARKERS[scoring]
    marked: list[Marked[E]] = []
    for group in groups:
        numerators, denominator = marker(group.halves)
        marked.append((group, numerators, denominator))
    return marked


def score_halves(score: Score) -> int:
    """A sheet's score in half points; ``BadResults`` unless a whole or half point."""
    if isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score):
        raise BadResults(f"a score is a number, not {score!r}")
    doubled = score * 2
    if doubled != int(doubled):
        raise BadResults(f"a score is a whole or half point, not {score!r}")
    return int(doubled)


def _unplayed_marks(
    marked: Sequence[Marked[E]], deals: int, scoring: ScoringKind
) -> list[Fraction]:
    """What a deal not played counts, deal by deal."""
    if scoring == "matchpoints":
        return [Fraction(NOT_PLAYED_PERCENT)] * deals
    worst: list[Fraction | None] = [None] * deals
    for group, numerators, denominator in marked:
        low = Fraction(min(numerators), denominator)
        current = worst[group.deal]
        worst[group.deal] = low if current is None else min(current, low)
    return [Fraction(0) if low is None else low for low in worst]


def _ranked(
    totals: dict[E, int], played: dict[E, int], denominator: int
) -> tuple[Standing[E], ...]:
    """Best first; equal totals share the rank of the first of them (1, 2, 2, 4)."""
    order = sorted(totals, key=lambda entrant: (-totals[entrant], entrant))
    standings: list[Standing[E]] = []
    for place, entrant in enumerate(order, 1):
        tied = standings and totals[standings[-1].entrant] == totals[entrant]
        rank = standings[-1].rank if tied else place
        mark = Fraction(totals[entrant], denominator)
        standings.append(Standing(rank, entrant, mark, played[entrant].bit_count()))
    return tuple(standings)
