"""The AI levels' fixed ratings, calibrated from the duplicate arena's margins (pure).

The rating model (``rating_model``) makes a gap of ``POINTS_SCALE`` rating
points one point per deal of duplicate margin, so each level sits
``POINTS_SCALE x margin`` above the level it was measured against, and
``expert`` is anchored at ``START`` (a new account starts level with it).
The margins are docs/BENCHMARKS.md's "AI" table (docs/RATINGS.md,
"Calibration"; a test reads them back from there and from docs/results/).
"""

from __future__ import annotations

from dataclasses import dataclass

from .rating_model import POINTS_SCALE, START, Rating


@dataclass(frozen=True, slots=True)
class Margin:
    """A duplicate arena match: ``stronger``'s points per deal over ``weaker``."""

    stronger: str
    weaker: str
    margin: float
    deals: int


# Each level measured against the next weaker one, weakest first.
MARGINS = (
    Margin("basic", "random", 375.3, 100_000),
    Margin("expert", "basic", 11.6, 100_000),
    # strong:fast (40 ms); at its default 150 ms it measured +18.1 [+12.0, +24.7] over 80 deals.
    Margin("strong", "expert", 18.52, 2_000),
)
ANCHOR = "expert"


def calibrated() -> dict[str, float]:
    """Each AI level's rating: the anchor at ``START``, the others by the chain of margins.

    >>> {level: round(value, 2) for level, value in calibrated().items()}
    {'random': 726.2, 'basic': 1476.8, 'expert': 1500.0, 'strong': 1537.04}
    """
    offsets = {MARGINS[0].weaker: 0.0}
    for m in MARGINS:
        offsets[m.stronger] = offsets[m.weaker] + POINTS_SCALE * m.margin
    shift = START - offsets[ANCHOR]
    return {level: offset + shift for level, offset in offsets.items()}


AI_RATINGS = calibrated()


def ai_rating(level: str) -> Rating | None:
    """The fixed rating of an AI level (``random``, ``basic``, ``expert``, ``strong``);
    None for any other (an AI with options of its own is not calibrated: its deal is unrated)."""
    value = AI_RATINGS.get(level)
    return None if value is None else Rating(value, 0, fixed=True)
