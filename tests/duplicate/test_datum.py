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
    # Deal 1: (-105 - 70 - 70 - 35) / 4 = -70.
    assert [marks[e, 1] for e in ENTRANTS] == [-35, 0, 0, 35]
    # Deal 2: (-35 + 210 - 70) / 3 = 35; Dan's, not played, counts its worst mark: -105.
    assert [marks[e, 2] for e in ENTRANTS[:3]] == [-70, 175, -105]
    standing = {s.entrant: (s.rank, s.mark) for s in scores.standings}
    assert standing == {
        "Bob": (1, Fraction(875, 10)),  # (87.5 + 0 + 175) / 3 = 87.5
        "Ann": (2, Fraction(-175, 30)),  # (87.5 - 35 - 70) / 3 = -5.83
        "Dan": (3, Fraction(-1325, 30)),  # (-62.5 + 35 - 105) / 3 = -44.17
        "Cleo": (4, Fraction(-725, 10)),  # (-112.5 + 0 - 105) / 3 = -72.5
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
