"""The rating model: a points Elo for one taker against three defenders (pure, no I/O).

A rating says how many points a player scores per deal: a gap of
``POINTS_SCALE`` rating points between a player and three others of one
rating is one point per deal more than they would score in that seat (the
duplicate arena's margin). docs/RATINGS.md says why this model and not
openskill's, and how a deal moves the four seats:

- the deal's result is its sheet's ``scores`` (the taker's side against the
  defence: the taker wins ``3a``, each defender loses ``a``, bonuses included);
- seat ``i`` is expected to score ``(R_i - mean of the four) / POINTS_SCALE * 4/3``;
- each seat moves by ``k * POINTS_SCALE * (scored - expected)``, ``k`` the
  seat's step: ``K_PROVISIONAL`` for its first ``PROVISIONAL_DEALS`` deals,
  then ``K``; a fixed seat (an AI level) has step 0 and never moves.

With every seat at one step the changes add up to 0 (the scores do, and so do
the expectations). A cancelled deal (no taker) moves nobody.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.errors import ServerError

POINTS_SCALE = 2.0  # rating points per point of score per deal
START = 1500.0  # a new account's rating: the expert AI's
K = 0.05  # an established rating's step, per point of surprise
K_PROVISIONAL = 0.2  # a provisional rating's step: it finds its level in ~10 deals
PROVISIONAL_DEALS = 20  # rated deals before a rating is no longer provisional
SEATS = 4


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


def updated(ratings: Sequence[Rating], scores: Sequence[float]) -> tuple[Rating, ...]:
    """The four ratings after a played deal whose seats scored ``scores``.

    Every seat that is not fixed counts one more deal.

    >>> after = updated([Rating()] * 4, [90.0, -30.0, -30.0, -30.0])
    >>> [round(r.value, 1) for r in after]
    [1536.0, 1488.0, 1488.0, 1488.0]
    """
    if len(ratings) != SEATS or len(scores) != SEATS:
        raise RatingError(f"a deal has {SEATS} seats and {SEATS} scores")
    expected = expected_scores([r.value for r in ratings])
    return tuple(
        r if r.fixed else Rating(r.value + r.step * POINTS_SCALE * (s - e), r.deals + 1)
        for r, s, e in zip(ratings, scores, expected, strict=True)
    )
