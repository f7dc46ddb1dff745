"""Matchpoints: each result of one deal and seat against every other result in that seat.

A result scores 2 points per result it beats and 1 per result it ties (the
sheet's score for its seat, compared as numbers: a passed-out deal's 0 is a
result like any other). Out of the most possible, ``2 × (n - 1)`` for ``n``
results, that is its percentage. The points of one deal and seat add up to
``n × (n - 1)`` whatever the scores (each pair shares 2), so the percentages
average 50. A result alone in its seat has nobody to be compared with: it
scores ``SINGLE_RESULT_PERCENT``, the average, neither a top nor a bottom.

>>> matchpoints([30, -10, 30, 100])
[3, 0, 3, 6]
>>> [str(p) for p in percentages([30, -10, 30, 100])]
['50', '0', '50', '100']
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from fractions import Fraction

SINGLE_RESULT_PERCENT = 50  # a result with no other in its seat: the average
Score = int | float  # a sheet's score: a whole or half point


def matchpoints(scores: Sequence[Score]) -> list[int]:
    """Each score's matchpoints among ``scores`` (one deal, one seat): 2 per score it beats,
    1 per other score it ties."""
    order = sorted(scores)
    # below = bisect_left, ties with itself = bisect_right - bisect_left: 2*below + (ties - 1)
    return [bisect_left(order, s) + bisect_right(order, s) - 1 for s in scores]


def percentage(points: int, results: int) -> Fraction:
    """``points`` matchpoints out of the most that ``results`` results allow, in percent."""
    if results < 1 or not 0 <= points <= 2 * (results - 1):
        raise ValueError(f"{points} matchpoints is not a score among {results} results")
    if results == 1:
        return Fraction(SINGLE_RESULT_PERCENT)
    return Fraction(50 * points, results - 1)


def percentages(scores: Sequence[Score]) -> list[Fraction]:
    """Each score's percentage among ``scores`` (one deal, one seat), exact."""
    return [percentage(points, len(scores)) for points in matchpoints(scores)]


def percentage_against(score: Score, field: Sequence[Score]) -> Fraction:
    """What ``score`` makes against ``field``, the other results of its deal and seat: how a
    running standing rates a deal against those who played it before.

    >>> str(percentage_against(30, [-10, 30, 100]))
    '50'
    """
    beaten = sum(1 for other in field if other < score)
    tied = sum(1 for other in field if other == score)
    return percentage(2 * beaten + tied, len(field) + 1)


def matchpoint_marks(halves: Sequence[int]) -> tuple[list[int], int]:
    """The percentages of one deal and seat as numerators over one denominator (scores
    in half points): how ``standings`` adds marks exactly without a ``Fraction`` each."""
    if len(halves) == 1:
        return [SINGLE_RESULT_PERCENT], 1
    return [50 * points for points in matchpoints(halves)], len(halves) - 1
