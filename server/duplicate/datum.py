"""The alternative scoring, datum: each result's score minus the mean of its deal and seat.

The "datum" is the mean score of every result in one deal and seat (bridge's
Butler scoring takes a trimmed mean; with a strong AI around every entrant, a
robot event's field has few wild results, so the plain mean is kept). A result's
mark is its points above the datum, in the sheet's points: it says by how much,
where matchpoints say only how many were beaten. The marks of one deal and seat
add up to 0. One big deal (a chelem, a garde contre) weighs more here than under
matchpoints, where any deal is worth the same 100%. docs/DUPLICATE.md.

>>> [float(mark) for mark in marks_above_datum([30, -10, 30, 100])]
[-7.5, -47.5, -7.5, 62.5]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .matchpoints import Score


def marks_above_datum(scores: Sequence[Score]) -> list[Fraction]:
    """Each score minus the mean of ``scores`` (one deal, one seat), exact."""
    halves = [round(Fraction(score) * 2) for score in scores]
    numerators, denominator = datum_marks(halves)
    return [Fraction(n, denominator) for n in numerators]


def datum_against(score: Score, field: Sequence[Score]) -> Fraction:
    """``score`` minus the mean of ``score`` and ``field`` (the others who played it)."""
    return marks_above_datum([score, *field])[0]


def datum_marks(halves: Sequence[int]) -> tuple[list[int], int]:
    """Marks above the datum as numerators over one denominator (scores in half points):
    ``h / 2 - total / (2n)`` is ``(n × h - total) / 2n``."""
    count, total = len(halves), sum(halves)
    return [count * h - total for h in halves], 2 * count
