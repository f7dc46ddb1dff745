"""Matchpoints of one deal and seat: 2 per result beaten, 1 per tie, out of 2 × (n - 1)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.duplicate import (
    SINGLE_RESULT_PERCENT,
    FieldSummary,
    mark_against,
    marks_above_datum,
    matchpoints,
    percentage,
    percentage_against,
    percentages,
    running_standing,
)

# Sheet scores: whole or half points, a field of 1 to 40 results in one deal and seat.
SCORES = st.integers(-2000, 2000).map(lambda halves: halves / 2)
FIELDS = st.lists(SCORES, min_size=1, max_size=40)


def test_a_hand_computed_deal_and_seat() -> None:
    # Five results: 150 beats three (6) and ties one (1); -50 beats nobody; 0 (a deal
    # passed out) beats -50 only; 52.5 beats -50 and 0. The most is 2 x 4 = 8.
    scores = [150, -50, 0, 150, 52.5]
    assert matchpoints(scores) == [7, 0, 2, 7, 4]
    assert percentages(scores) == [Fraction(175, 2), 0, 25, Fraction(175, 2), 50]


def test_a_result_alone_in_its_seat_scores_the_average() -> None:
    assert matchpoints([-300]) == [0]
    assert percentages([-300]) == [SINGLE_RESULT_PERCENT] == [50]
    assert percentage_against(-300, []) == 50


def test_every_result_alike_is_an_average_for_each() -> None:
    assert percentages([0, 0, 0]) == [50, 50, 50]


def test_a_result_against_those_who_played_before_it() -> None:
    # 35 against -70, 35 and 210: beats one (2), ties one (1), of 6.
    assert percentage_against(35, [-70, 35, 210]) == 50
    assert percentage_against(500, [-70, 35, 210]) == 100


@pytest.mark.parametrize(("points", "results"), [(-1, 3), (5, 3), (0, 0), (1, 1)])
def test_matchpoints_out_of_range_are_refused(points: int, results: int) -> None:
    with pytest.raises(ValueError, match="is not a score among"):
        percentage(points, results)


@given(FIELDS)
def test_percentages_are_between_0_and_100(scores: list[float]) -> None:
    assert all(0 <= p <= 100 for p in percentages(scores))


@given(FIELDS)
def test_the_matchpoints_of_a_deal_and_seat_add_up_to_n_times_n_minus_1(
    scores: list[float],
) -> None:
    n = len(scores)
    assert sum(matchpoints(scores)) == n * (n - 1)
    assert sum(percentages(scores)) == 50 * n  # so the percentages average 50


@given(FIELDS, st.randoms(use_true_random=False))
def test_permuting_the_results_changes_no_ones_matchpoints(
    scores: list[float], rng: random.Random
) -> None:
    order = list(range(len(scores)))
    rng.shuffle(order)
    shuffled = [scores[i] for i in order]
    assert matchpoints(shuffled) == [matchpoints(scores)[i] for i in order]


@given(FIELDS, st.data())
def test_a_better_score_never_gets_a_lower_percentage(
    scores: list[float], data: st.DataObject
) -> None:
    mine = data.draw(st.integers(0, len(scores) - 1))
    better = scores[mine] + data.draw(st.integers(0, 400)) / 2
    raised = [*scores[:mine], better, *scores[mine + 1 :]]
    assert percentages(raised)[mine] >= percentages(scores)[mine]
    # and within one field, a higher score has the higher percentage
    marks = percentages(scores)
    for a, b in zip(scores, marks, strict=True):
        for c, d in zip(scores, marks, strict=True):
            assert (a > c) <= (b > d)


@given(FIELDS)
def test_against_the_others_is_the_same_percentage(scores: list[float]) -> None:
    for i, score in enumerate(scores):
        others = scores[:i] + scores[i + 1 :]
        assert percentage_against(score, others) == percentages(scores)[i]


@given(FIELDS)
def test_a_running_mark_against_a_summary_is_the_same_percentage(scores: list[float]) -> None:
    for i, score in enumerate(scores):
        summary = FieldSummary.of(score, scores[:i] + scores[i + 1 :])
        assert mark_against("matchpoints", score, summary) == percentages(scores)[i]
        assert mark_against("datum", score, summary) == marks_above_datum(scores)[i]


def test_a_running_standing_is_the_mean_of_the_deals_so_far() -> None:
    # Deal 0: 150 against 150, -50, 0 before it: 5/6. Deal 1: -105, first to play it: 50%.
    played = [(150, FieldSummary.of(150, [150, -50, 0])), (-105, FieldSummary.of(-105, []))]
    assert running_standing("matchpoints", played) == (Fraction(250, 3) + 50) / 2
    assert running_standing("matchpoints", []) is None
