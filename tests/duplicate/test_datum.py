"""The alternative scoring, datum: each result's points above the mean of its deal and seat."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from server.duplicate import datum_against, marks_above_datum, score_event

from .worked_example import ENTRANTS, RESULTS


def test_the_worked_example_under_datum_by_hand() -> None:
    scores = score_event(RESULTS, ENTRANTS, deals=3, scoring="datum")
    marks = {(r.entrant, r.deal): r.mark for r in scores.results()}
    # Deal 0: the datum is (150 + 150 - 50 + 0) / 4 = 62.5.
    assert [marks[e, 0] for e in ENTRANTS] == [87.5, 87.5, -112.5, -62.5]
    # Deal 1: (-105 - 35 - 35) / 3 = -58.33; Ann -46.67, Bob and Cleo +23.33.
    assert [marks[e, 1] for e in ENTRANTS[:3]] == [-140 / 3, 70 / 3, 70 / 3]
    # Deal 2: (-70 + 210 - 70 + 35) / 4 = 26.25.
    assert [marks[e, 2] for e in ENTRANTS] == [-96.25, 183.75, -96.25, 8.75]
    # Dan's deal 1, not played, counts the worst mark of that deal: Ann's -46.67.
    standing = {s.entrant: (s.rank, s.mark) for s in scores.standings}
    third = Fraction(1, 3)
    assert standing == {
        "Bob": (1, (Fraction(175, 2) + Fraction(70, 3) + Fraction(735, 4)) * third),  # 98.19
        "Ann": (2, (Fraction(175, 2) - Fraction(140, 3) - Fraction(385, 4)) * third),  # -18.47
        "Dan": (3, (Fraction(-125, 2) - Fraction(140, 3) + Fraction(35, 4)) * third),  # -33.47
        "Cleo": (4, (Fraction(-225, 2) + Fraction(70, 3) - Fraction(385, 4)) * third),  # -61.81
    }


def test_a_deal_nobody_played_counts_0_under_datum() -> None:
    scores = score_event([], ["ann"], deals=2, scoring="datum")
    assert [(s.rank, s.mark, s.played) for s in scores.standings] == [(1, Fraction(0), 0)]


SCORES = st.integers(-2000, 2000).map(lambda halves: halves / 2)


@given(st.lists(SCORES, min_size=1, max_size=30))
def test_the_marks_of_a_deal_and_seat_add_up_to_0_and_keep_the_order(scores: list[float]) -> None:
    marks = marks_above_datum(scores)
    assert sum(marks) == 0
    for a, b in zip(scores, marks, strict=True):
        for c, d in zip(scores, marks, strict=True):
            assert (a > c) == (b > d)
            assert b - d == Fraction(a) - Fraction(c)  # by exactly the points between them
    assert datum_against(scores[0], scores[1:]) == marks[0]
