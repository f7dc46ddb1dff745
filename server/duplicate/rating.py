"""The duplicate rating: each finished event as pairwise results, per deal and seat (pure).

A separate rating from the table rating (``server.history.rating_model``), on the
classic Elo scale (docs/RATINGS.md, "Duplicate rating"). In one deal and seat every
two results are a game between their entrants: the higher score wins, equal scores
draw; an entrant's result on the deal is the share of those games it won (its
matchpoint percentage / 100), and its expected result the mean, over the others in
that deal and seat, of ``1 / (1 + 10 ** ((R_other - R_own) / SCALE))``. After the
event each rated entrant moves by ``K_DEAL`` times the sum over its deals played of
(result - expected). A result alone in its seat is no game; a deal not played is
none either (the standing counts it 0%, the rating leaves it out). A fixed entrant
(an AI seat of a ``tables`` event) is an opponent of rating ``START`` and never moves.

The expected result is added up by rating, not by opponent (opponents of one
rating, to the point, weigh alike): the daily event's ten thousand entrants, all
new at ``START``, are one term each, not ten thousand.

>>> from server.duplicate import DealResult
>>> results = [DealResult("ann", 0, 0, 120), DealResult("bob", 0, 0, -40)]
>>> {e: round(r, 1) for e, r in rate_event(results, {"ann": 1500.0, "bob": 1500.0}).items()}
{'ann': 1505.0, 'bob': 1495.0}
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping

from .standings import DealResult, E

START = 1500.0  # a new entrant's duplicate rating, and every AI seat's
SCALE = 400.0  # Elo's: 400 points apart, the stronger wins 10 games to 1
K_DEAL = 10.0  # rating points per deal of surprise (a whole deal won against equals: +5)


def expected(own: float, other: float) -> float:
    """The share of games ``own`` is expected to win against ``other``."""
    return 1.0 / (1.0 + float(10.0 ** ((other - own) / SCALE)))


def rate_event(
    results: Iterable[DealResult[E]],
    ratings: Mapping[E, float],
    fixed: frozenset[E] = frozenset(),
) -> dict[E, float]:
    """The new rating of each entrant that played a game in the event, from ``ratings``
    before it (``START`` for one it does not hold); ``fixed`` entrants are left out."""
    groups: dict[tuple[int, int], list[tuple[E, float]]] = defaultdict(list)
    for r in results:
        groups[r.deal, r.seat].append((r.entrant, float(r.score)))
    moved: dict[E, float] = defaultdict(float)
    for group in groups.values():
        if len(group) > 1:
            _games(group, ratings, moved)
    return {
        entrant: ratings.get(entrant, START) + K_DEAL * surprise
        for entrant, surprise in moved.items()
        if entrant not in fixed
    }


def _games(group: list[tuple[E, float]], ratings: Mapping[E, float], moved: dict[E, float]) -> None:
    """Add each entrant's result minus its expected result over one deal and seat."""
    others = len(group) - 1
    by_score = Counter(score for _, score in group)
    below = _below(by_score)
    field = Counter(round(ratings.get(entrant, START)) for entrant, _ in group)
    for entrant, score in group:
        own = ratings.get(entrant, START)
        won = below[score] + (by_score[score] - 1) / 2
        against = sum(n * expected(own, r) for r, n in field.items()) - expected(own, round(own))
        moved[entrant] += (won - against) / others


def _below(by_score: Counter[float]) -> dict[float, int]:
    """How many results of the group are below each score."""
    below, seen = {}, 0
    for score in sorted(by_score):
        below[score] = seen
        seen += by_score[score]
    return below
