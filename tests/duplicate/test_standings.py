"""An event's standings: the mean percentage over its deals, a deal not played 0%, ties shared."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.duplicate import (
    NOT_PLAYED_PERCENT,
    BadResults,
    DealResult,
    percentages,
    score_event,
)

from .worked_example import ENTRANTS, RESULTS


def test_the_worked_example_of_the_docs_by_hand() -> None:
    scores = score_event(RESULTS, ENTRANTS, deals=3)
    marks = {
        (r.entrant, r.deal): Fraction(r.mark).limit_denominator(1000) for r in scores.results()
    }
    # Deal 0, four results, the most is 2 x 3 = 6 matchpoints:
    #   Ann 150: beats Cleo and Dan (4), ties Bob (1): 5/6 = 83.33%; Bob alike;
    #   Cleo -50: 0/6 = 0%; Dan 0 (passed out): beats Cleo, 2/6 = 33.33%.
    assert [marks[e, 0] for e in ENTRANTS] == [
        Fraction(250, 3),
        Fraction(250, 3),
        0,
        Fraction(100, 3),
    ]
    # Deal 1: Ann -105: 0/6 = 0%; Bob and Cleo -70: beat Ann (2), tie (1): 3/6 = 50%;
    #   Dan -35: beats all three, 6/6 = 100%.
    assert [marks[e, 1] for e in ENTRANTS] == [0, 50, 50, 100]
    # Deal 2, three results (Dan stopped), the most is 2 x 2 = 4:
    #   Bob 210: 4/4 = 100%; Ann -35: beats Cleo, 2/4 = 50%; Cleo -70: 0%.
    assert [marks[e, 2] for e in ENTRANTS[:3]] == [50, 100, 0]
    assert ("Dan", 2) not in marks
    # Standings, the mean over the 3 deals, Dan's deal 2 counting 0%:
    #   Bob (83.33 + 50 + 100) / 3 = 77.78; Ann (83.33 + 0 + 50) / 3 = 44.44;
    #   Dan (33.33 + 100 + 0) / 3 = 44.44, exactly Ann's 400/9: they share 2nd place;
    #   Cleo (0 + 50 + 0) / 3 = 16.67.
    table = [(s.rank, s.entrant, s.mark, s.played) for s in scores.standings]
    assert table == [
        (1, "Bob", Fraction(700, 9), 3),
        (2, "Ann", Fraction(400, 9), 3),
        (2, "Dan", Fraction(400, 9), 2),
        (4, "Cleo", Fraction(50, 3), 3),
    ]
    assert [round(float(s.mark), 2) for s in scores.standings] == [77.78, 44.44, 44.44, 16.67]


def test_a_deal_not_played_counts_0_percent() -> None:
    assert NOT_PLAYED_PERCENT == 0
    results = [DealResult("ann", 0, 0, 100), DealResult("bob", 0, 0, 0)]
    scores = score_event(results, ["ann", "bob", "cleo"], deals=2)
    # Ann's 100% on deal 0 and nothing on deal 1: 50%; Cleo entered and played nothing.
    assert [(s.entrant, s.mark, s.played) for s in scores.standings] == [
        ("ann", Fraction(50), 1),
        ("bob", Fraction(0), 1),
        ("cleo", Fraction(0), 0),
    ]
    assert [s.rank for s in scores.standings] == [1, 2, 2]


def _field(deal: int, seat: int, name: str, score: int, others: list[int]) -> list[DealResult[str]]:
    """``name``'s result and those of others in one deal and seat."""
    mine = DealResult(name, deal, seat, score)
    return [mine, *(DealResult(f"{deal}.{seat}.{i}", deal, seat, s) for i, s in enumerate(others))]


def test_equal_standings_share_their_rank_exactly() -> None:
    # Ann: 5% (1 matchpoint of 20) + 66.67% (4 of 6); Bob: 30% (3 of 10) + 41.67% (5 of 12).
    # Both add up to 215/3 exactly, but as floats 5 + 66.666...67 and 30 + 41.666...67 are
    # 71.66666666666667 and 71.66666666666666: a float sum would rank Ann above Bob.
    results = [
        *_field(0, 0, "Ann", 0, [0, *[10] * 9]),
        *_field(1, 0, "Ann", 20, [10, 10, 30]),
        *_field(0, 1, "Bob", 10, [0, 10, 20, 20, 20]),
        *_field(1, 1, "Bob", 10, [0, 0, 10, 20, 20, 20]),
    ]
    assert 5 + 200 / 3 != 30 + 125 / 3
    entrants = sorted({r.entrant for r in results})
    scores = score_event(results, entrants, deals=2)
    by_name = {s.entrant: s for s in scores.standings}
    assert by_name["Ann"].mark == by_name["Bob"].mark == Fraction(215, 6)
    assert by_name["Ann"].rank == by_name["Bob"].rank


def test_each_seat_is_compared_only_with_that_seat() -> None:
    # A tables event: seat 0 and seat 1 of two tables; -100 in seat 1 beats -200 there.
    results = [
        DealResult("n1", 0, 0, 300), DealResult("e1", 0, 1, -100),
        DealResult("n2", 0, 0, 600), DealResult("e2", 0, 1, -200),
    ]  # fmt: skip
    scores = score_event(results, ["n1", "e1", "n2", "e2"], deals=1)
    assert {s.entrant: s.mark for s in scores.standings} == {"n2": 100, "e1": 100, "n1": 0, "e2": 0}


@pytest.mark.parametrize(
    ("results", "entrants", "message"),
    [
        ([DealResult("eve", 0, 0, 10)], ["ann"], "'eve', who did not enter"),
        ([DealResult("ann", 3, 0, 10)], ["ann"], "no deal 3 seat 0"),
        ([DealResult("ann", 0, 4, 10)], ["ann"], "no deal 0 seat 4"),
        ([DealResult("ann", -1, 0, 10)], ["ann"], "no deal -1 seat 0"),
        ([DealResult("ann", 0, 0, 1), DealResult("ann", 0, 1, 1)], ["ann"], "two results of 'ann'"),
        ([DealResult("ann", 0, 0, 0.25)], ["ann"], "a whole or half point, not 0.25"),
        ([DealResult("ann", 0, 0, float("nan"))], ["ann"], "a number, not nan"),
        ([DealResult("ann", 0, 0, True)], ["ann"], "a number, not True"),
        ([], ["ann", "ann"], "listed twice: 'ann'"),
    ],
)
def test_results_that_cannot_be_scored_are_refused(
    results: list[DealResult[str]], entrants: list[str], message: str
) -> None:
    with pytest.raises(BadResults, match=message) as refused:
        score_event(results, entrants, deals=3)
    assert refused.value.code == "bad_results"


def test_an_event_of_no_deal_is_refused() -> None:
    with pytest.raises(BadResults, match="1 deal or more, not 0"):
        score_event([], [], deals=0)


# Random events: up to 12 entrants, 1-4 deals, each entrant playing some deals in one seat
# (a tables event's seats, or all in seat 0), scores whole or half points.
@st.composite
def events(draw: st.DrawFn) -> tuple[list[DealResult[int]], list[int], int]:
    deals = draw(st.integers(1, 4))
    entrants = list(range(draw(st.integers(1, 12))))
    results = []
    for entrant in entrants:
        seat = draw(st.integers(0, 3))
        for deal in range(deals):
            if draw(st.booleans()) or draw(st.booleans()):
                score = draw(st.sampled_from([-210, -70, -35, 0, 0, 35, 52.5, 70, 105, 210]))
                results.append(DealResult(entrant, deal, seat, score))
    return results, entrants, deals


@given(events())
def test_percentages_and_standings_are_between_0_and_100(
    event: tuple[list[DealResult[int]], list[int], int],
) -> None:
    scores = score_event(*event)
    assert all(0 <= r.mark <= 100 for r in scores.results())
    assert all(0 <= s.mark <= 100 for s in scores.standings)


@given(events())
def test_each_deal_and_seat_hands_out_n_times_n_minus_1_matchpoints(
    event: tuple[list[DealResult[int]], list[int], int],
) -> None:
    for group in score_event(*event).seats:
        n = len(group.entrants)
        points = sum(Fraction(mark).limit_denominator(10**6) for mark in group.marks)
        # each percentage is points x 100 / (2(n - 1)): the points add up to n(n - 1)
        assert points == (50 * n if n == 1 else Fraction(n * (n - 1) * 100, 2 * (n - 1)))


@given(events(), st.randoms(use_true_random=False))
def test_permuting_the_entrants_changes_nothing(
    event: tuple[list[DealResult[int]], list[int], int], rng: random.Random
) -> None:
    results, entrants, deals = event
    shuffled_results, shuffled_entrants = results[:], entrants[:]
    rng.shuffle(shuffled_results)
    rng.shuffle(shuffled_entrants)
    before, after = (
        score_event(results, entrants, deals),
        score_event(shuffled_results, shuffled_entrants, deals),
    )
    assert before.standings == after.standings
    assert sorted(before.results()) == sorted(after.results())


@given(events(), st.data())
def test_a_better_score_never_gets_a_lower_percentage_or_standing(
    event: tuple[list[DealResult[int]], list[int], int], data: st.DataObject
) -> None:
    results, entrants, deals = event
    if not results:
        return
    mine = data.draw(st.integers(0, len(results) - 1))
    better = results[mine]._replace(score=results[mine].score + data.draw(st.integers(1, 300)))
    raised = [*results[:mine], better, *results[mine + 1 :]]
    before, after = score_event(results, entrants, deals), score_event(raised, entrants, deals)
    mark = {(r.entrant, r.deal): r.mark for r in before.results()}
    raised_mark = {(r.entrant, r.deal): r.mark for r in after.results()}
    key = (better.entrant, better.deal)
    assert raised_mark[key] >= mark[key]
    standing = {s.entrant: s for s in before.standings}[better.entrant]
    raised_standing = {s.entrant: s for s in after.standings}[better.entrant]
    assert raised_standing.mark >= standing.mark and raised_standing.rank <= standing.rank


@given(events())
def test_the_standing_is_the_exact_mean_of_the_percentages(
    event: tuple[list[DealResult[int]], list[int], int],
) -> None:
    results, entrants, deals = event
    exact: dict[int, Fraction] = dict.fromkeys(entrants, Fraction(0))
    for deal in range(deals):
        for seat in range(4):
            field = [r for r in results if (r.deal, r.seat) == (deal, seat)]
            for r, p in zip(field, percentages([r.score for r in field]), strict=True):
                exact[r.entrant] += p
    standings = score_event(results, entrants, deals).standings
    assert {s.entrant: s.mark for s in standings} == {e: exact[e] / deals for e in entrants}
    ranks = {s.entrant: s.rank for s in standings}
    for a in entrants:
        for b in entrants:
            assert (exact[a] > exact[b]) == (ranks[a] < ranks[b])
