"""The rating model: a points Elo, humans compared with each other only (pure, no I/O).

A rating says how many points a player scores per deal: a gap of
``POINTS_SCALE`` rating points between a player and three others of one
rating is one point per deal more than they would score in that seat (the
duplicate arena's margin). docs/RATINGS.md says why this model and not
openskill's, and how a deal moves its human seats:

- the deal's result is its sheet's ``scores`` (the taker's side against the
  defence: the taker wins ``3a``, each defender loses ``a``, bonuses included);
- only the human seats (a ``Rating`` that is not ``fixed``; an AI seat is
  ``None`` or a fixed rating) are compared, two by two: in the pair ``i, j``,
  ``i`` scored ``PAIR_WEIGHT * (s_i - s_j)`` and was expected
  ``(R_i - R_j) / POINTS_SCALE``;
- a human moves by ``k * POINTS_SCALE`` times the mean of its pairs' surprises,
  ``k`` its step: ``K_PROVISIONAL`` for its first ``PROVISIONAL_DEALS`` deals,
  then ``K``. An AI seat never moves and is no one's opponent; a deal with one
  human moves nobody and counts for no one.

With four humans this is the four-seat model (seat ``i`` expected
``(R_i - mean) / POINTS_SCALE * 4/3``, moving by ``k * POINTS_SCALE * (s_i - expected_i)``):
``PAIR_WEIGHT`` = 3/4 makes them equal. With every human at one step the
changes add up to 0. A cancelled deal (no taker) moves nobody.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

from server.errors import ServerError

POINTS_SCALE = 2.0  # rating points per point of score per deal
START = 1500.0  # a new account's rating: the expert AI's
K = 0.05  # an established rating's step, per point of surprise
K_PROVISIONAL = 0.2  # a provisional rating's step: it finds its level in ~10 deals
PROVISIONAL_DEALS = 20  # rated deals before a rating is no longer provisional
SEATS = 4
# A pair's result is this share of its two seats' score gap: with four humans, a seat's
# mean over its three pairs is then its own score (the scores add up to 0).
PAIR_WEIGHT = (SEATS - 1) / SEATS
# A seat left mid-deal counts, for its leaver's rating, this far below the deal's lowest
# score (R20's contract base): last, whatever the AI made of the seat afterwards.
LAST_MARGIN = 25.0


class RatingError(ServerError, ValueError):
    """A deal or a rating the model cannot take (a bad sheet, a wrong number of seats)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating and how many rated deals it rests on."""

    value: float = START
    deals: int = 0
    fixed: bool = False  # an AI level's: calibrated, never moves

    @property
    def provisional(self) -> bool:
        """True until the rating has ``PROVISIONAL_DEALS`` deals behind it (never for AI)."""
        return not self.fixed and self.deals < PROVISIONAL_DEALS

    @property
    def step(self) -> float:
        if self.fixed:
            return 0.0
        return K_PROVISIONAL if self.provisional else K


def expected_scores(ratings: Sequence[float]) -> tuple[float, ...]:
    """Each seat's expected score for the deal, by seat; they add up to 0.

    Against three of one rating, a gap ``g`` gives ``g / POINTS_SCALE`` points
    per deal (``(g - g/4) * 4/3``), which is what the arena's margin measures.

    >>> [round(e, 2) for e in expected_scores([1520.0, 1500.0, 1500.0, 1500.0])]
    [10.0, -3.33, -3.33, -3.33]
    """
    if len(ratings) != SEATS:
        raise RatingError(f"a deal has {SEATS} seats, not {len(ratings)}")
    mean = sum(ratings) / SEATS
    return tuple((r - mean) / POINTS_SCALE * SEATS / (SEATS - 1) for r in ratings)


def seat_scores(sheet: Mapping[str, Any]) -> tuple[float, ...] | None:
    """The four seats' scores of a played deal's sheet; None for a cancelled deal."""
    status = sheet.get("status")
    if status == "cancelled":
        return None
    if status != "played":
        raise RatingError(f"a sheet's status is played or cancelled, not {status!r}")
    scores = sheet.get("scores")
    if (
        not isinstance(scores, list)
        or len(scores) != SEATS
        or not all(isinstance(s, int | float) and not isinstance(s, bool) for s in scores)
    ):
        raise RatingError(f"a played sheet has {SEATS} numeric scores")
    if abs(sum(scores)) > 1e-9:
        raise RatingError(f"a sheet's scores add up to 0, not {sum(scores)}")
    return tuple(float(s) for s in scores)


def last_place(scores: Sequence[float], seat: int) -> tuple[float, ...]:
    """``scores`` with ``seat`` scored last: ``LAST_MARGIN`` below the deal's lowest score
    (how a rated quick-play seat left mid-deal counts for its leaver).

    >>> last_place([90.0, -30.0, -30.0, -30.0], 0)
    (-55.0, -30.0, -30.0, -30.0)
    """
    if len(scores) != SEATS or not 0 <= seat < SEATS:
        raise RatingError(f"a deal has {SEATS} seats; seat {seat} is not one")
    lowest = min(scores)
    return tuple(lowest - LAST_MARGIN if i == seat else s for i, s in enumerate(scores))


def humans(ratings: Sequence[Rating | None]) -> list[int]:
    """The seats compared in a deal: those with a rating that is not an AI's."""
    return [i for i, r in enumerate(ratings) if r is not None and not r.fixed]


@overload
def updated(ratings: Sequence[Rating], scores: Sequence[float]) -> tuple[Rating, ...]: ...
@overload
def updated(
    ratings: Sequence[Rating | None], scores: Sequence[float]
) -> tuple[Rating | None, ...]: ...
def updated(ratings: Sequence[Rating | None], scores: Sequence[float]) -> tuple[Rating | None, ...]:
    """The four seats' ratings after a played deal whose seats scored ``scores``.

    Humans are compared two by two; an AI seat (``None`` or fixed) is left as it is
    and is no opponent. With fewer than two humans nothing moves; otherwise every
    human counts one more deal.

    >>> after = updated([Rating()] * 4, [90.0, -30.0, -30.0, -30.0])
    >>> [round(r.value, 1) for r in after if r is not None]
    [1536.0, 1488.0, 1488.0, 1488.0]
    >>> after = updated([Rating(), None, Rating(), None], [90.0, -30.0, -30.0, -30.0])
    >>> [None if r is None else round(r.value, 1) for r in after]
    [1536.0, None, 1464.0, None]
    """
    if len(ratings) != SEATS or len(scores) != SEATS:
        raise RatingError(f"a deal has {SEATS} seats and {SEATS} scores")
    compared = humans(ratings)
    if len(compared) < 2:
        return tuple(ratings)
    after: list[Rating | None] = list(ratings)
    for i in compared:
        r = ratings[i]
        assert r is not None
        surprise = sum(
            PAIR_WEIGHT * (scores[i] - scores[j]) - (r.value - _value(ratings[j])) / POINTS_SCALE
            for j in compared
            if j != i
        ) / (len(compared) - 1)
        after[i] = Rating(r.value + r.step * POINTS_SCALE * surprise, r.deals + 1)
    return tuple(after)


def _value(rating: Rating | None) -> float:
    assert rating is not None
    return rating.value
