"""The duplicate rating (``server.duplicate.rating``): pairwise results per deal and seat."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from server.duplicate import DealResult, rate_event
from server.duplicate.rating import START, expected


def test_a_worked_example_by_hand() -> None:
    # Deal 0, seat 0: Ann 120, Bob 120, Cleo -40. Ann (1600) ties Bob (1400) and beats
    # Cleo (1500): 1.5 games of 2; expected E(1600, 1400) + E(1600, 1500).
    results = [DealResult("ann", 0, 0, 120), DealResult("bob", 0, 0, 120)]
    results += [DealResult("cleo", 0, 0, -40)]
    ratings = {"ann": 1600.0, "bob": 1400.0, "cleo": 1500.0}
    new = rate_event(results, ratings)
    e_ab, e_ac = 1 / (1 + 10 ** (-200 / 400)), 1 / (1 + 10 ** (-100 / 400))
    assert math.isclose(new["ann"], 1600 + 10 * (0.75 - (e_ab + e_ac) / 2))
    e_ba, e_bc = 1 / (1 + 10 ** (200 / 400)), 1 / (1 + 10 ** (100 / 400))
    assert math.isclose(new["bob"], 1400 + 10 * (0.75 - (e_ba + e_bc) / 2))
    assert math.isclose(expected(1600, 1400), e_ab)


def test_a_result_alone_and_a_fixed_entrant_do_not_move() -> None:
    alone = [DealResult("ann", 0, 0, 80), DealResult("bob", 0, 1, -80)]
    assert rate_event(alone, {}) == {}  # different seats: nobody to be compared with
    pair = [DealResult("ann", 0, 2, 80), DealResult("ai", 0, 2, -80)]
    assert rate_event(pair, {}, frozenset({"ai"})) == {"ann": START + 5}


scores = st.lists(st.integers(-5, 5).map(lambda s: s * 30), min_size=2, max_size=8)


@given(scores=scores, deals=st.integers(1, 3))
def test_equal_ratings_trade_points_zero_sum_and_permuting_changes_nothing(
    scores: list[int], deals: int
) -> None:
    results = [
        DealResult(f"p{i}", deal, 0, score * (deal + 1))
        for deal in range(deals)
        for i, score in enumerate(scores)
    ]
    new = rate_event(results, {})
    assert math.isclose(sum(r - START for r in new.values()), 0, abs_tol=1e-9)
    assert rate_event(list(reversed(results)), {}) == new
