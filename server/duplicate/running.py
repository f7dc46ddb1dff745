"""A running standing: one entrant's deals so far, each against those who played it before.

While an event is open an entrant may see how they stand (issue 24): each deal
they played is marked against the results recorded on it *before* theirs, in
their seat (so nothing played after them, which they could not have known,
changes what they were shown), and the standing is the mean over the deals
played so far. The field is handed in as counts and a sum (``FieldSummary``),
which a database can add up without sending every result. The final standing
(``standings``) is another thing: every result against every other, over all
the event's deals.

>>> summary = FieldSummary.of(35, [-70, 35, 210])
>>> summary, str(mark_against("matchpoints", 35, summary))
(FieldSummary(beaten=1, tied=1, size=3, total=175), '50')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .definition import ScoringKind
from .matchpoints import Score, percentage


@dataclass(frozen=True, slots=True)
class FieldSummary:
    """The other results of one deal and seat, as much as a mark against them needs."""

    beaten: int  # results below the score
    tied: int  # results equal to it
    size: int  # every result
    total: Score  # their sum (for the datum)

    @classmethod
    def of(cls, score: Score, field: Sequence[Score]) -> FieldSummary:
        beaten = sum(1 for other in field if other < score)
        tied = sum(1 for other in field if other == score)
        return cls(beaten, tied, len(field), sum(field))


def mark_against(scoring: ScoringKind, score: Score, field: FieldSummary) -> Fraction:
    """``score``'s mark against ``field``: its percentage, or its points above the mean of
    the field and itself."""
    if scoring == "matchpoints":
        return percentage(2 * field.beaten + field.tied, field.size + 1)
    own = Fraction(score)
    return own - (own + Fraction(field.total)) / (field.size + 1)


def running_standing(
    scoring: ScoringKind, played: Iterable[tuple[Score, FieldSummary]]
) -> Fraction | None:
    """The mean mark of the deals played so far (``(score, field)`` pairs); None if none."""
    marks = [mark_against(scoring, score, field) for score, field in played]
    return sum(marks, Fraction(0)) / len(marks) if marks else None
