"""The rating model (pure): symmetry of defenders, zero sum, a win raises the winner,
provisional until ``PROVISIONAL_DEALS`` deals, AI seats never move and are no opponent
(humans compared with each other only), a leaver counted last, bad input refused."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.history.rating_model import (
    K_PROVISIONAL,
    LAST_MARGIN,
    POINTS_SCALE,
    PROVISIONAL_DEALS,
    START,
    K,
    Rating,
    RatingError,
    expected_scores,
    last_place,
    seat_scores,
    updated,
)

values = st.floats(min_value=0, max_value=3000, allow_nan=False)
counts = st.integers(min_value=0, max_value=200)
ratings = st.builds(Rating, values, counts)
# What each defender pays the taker (R20: a multiple of 0.5, negative when the taker loses).
per_defender = st.integers(min_value=-1000, max_value=1000).map(lambda n: n / 2)
seats = st.integers(min_value=0, max_value=3)


def deal_scores(taker: int, a: float) -> list[float]:
    return [3 * a if seat == taker else -a for seat in range(4)]


def changes(before: list[Rating], after: tuple[Rating, ...]) -> list[float]:
    return [n.value - b.value for b, n in zip(before, after, strict=True)]


@given(st.lists(ratings, min_size=4, max_size=4), seats, per_defender, st.permutations([0, 1, 2]))
def test_defenders_are_symmetric(
    four: list[Rating], taker: int, a: float, order: list[int]
) -> None:
    """Swapping the defenders' seats swaps their new ratings; nothing else changes."""
    defenders = [s for s in range(4) if s != taker]
    swapped = list(four)
    for source, target in zip(defenders, [defenders[i] for i in order], strict=True):
        swapped[target] = four[source]
    scores = deal_scores(taker, a)
    after, after_swapped = updated(four, scores), updated(swapped, scores)
    assert math.isclose(after[taker].value, after_swapped[taker].value, abs_tol=1e-9)
    for source, target in zip(defenders, [defenders[i] for i in order], strict=True):
        assert math.isclose(after[source].value, after_swapped[target].value, abs_tol=1e-9)


@given(values, seats, per_defender, counts)
def test_defenders_of_one_rating_move_alike(
    defence: float, taker: int, a: float, deals: int
) -> None:
    four = [Rating(defence, deals)] * 4
    four[taker] = Rating(START, deals)
    moved = changes(four, updated(four, deal_scores(taker, a)))
    assert len({round(moved[s], 9) for s in range(4) if s != taker}) == 1


@given(st.lists(values, min_size=4, max_size=4), seats, per_defender, st.booleans())
def test_changes_add_up_to_zero_when_every_seat_has_one_step(
    four: list[float], taker: int, a: float, provisional: bool
) -> None:
    deals = 0 if provisional else PROVISIONAL_DEALS
    before = [Rating(v, deals) for v in four]
    moved = changes(before, updated(before, deal_scores(taker, a)))
    assert math.isclose(sum(moved), 0, abs_tol=1e-6)


@given(values, seats, per_defender.filter(lambda a: a != 0), counts)
def test_a_win_raises_the_winner_and_a_loss_lowers_the_loser(
    rating: float, taker: int, a: float, deals: int
) -> None:
    """At one rating nobody is expected to win: the side that won goes up, the other down."""
    four = [Rating(rating, deals)] * 4
    moved = changes(four, updated(four, deal_scores(taker, a)))
    sign = 1 if a > 0 else -1
    assert sign * moved[taker] > 0
    assert all(sign * moved[s] < 0 for s in range(4) if s != taker)


@given(st.lists(ratings, min_size=4, max_size=4), seats, per_defender, per_defender)
def test_a_bigger_win_never_gives_the_taker_less(
    four: list[Rating], taker: int, a: float, b: float
) -> None:
    low, high = sorted((a, b))
    assert (
        updated(four, deal_scores(taker, low))[taker].value
        <= updated(four, deal_scores(taker, high))[taker].value
    )


def test_expected_margin_against_three_equals_is_the_gap_over_the_scale() -> None:
    """What the arena calibration rests on: a gap ``g`` is ``g / POINTS_SCALE`` points a deal."""
    for gap in (-300.0, -10.0, 0.0, 37.0, 750.6):
        expected = expected_scores([START + gap, START, START, START])
        assert math.isclose(expected[0], gap / POINTS_SCALE)
        assert math.isclose(sum(expected), 0, abs_tol=1e-9)


def test_provisional_until_the_set_number_of_deals() -> None:
    rating = Rating()
    for _ in range(PROVISIONAL_DEALS):
        assert rating.provisional and rating.step == K_PROVISIONAL
        [rating, *_] = updated([rating, *[Rating()] * 3], deal_scores(0, 10))
    assert rating.deals == PROVISIONAL_DEALS
    assert not rating.provisional and rating.step == K
    # The same surprise moves a provisional rating more than an established one.
    new, old = Rating(START, 0), Rating(START, PROVISIONAL_DEALS)
    fast = updated([new, *[old] * 3], deal_scores(0, 30))[0].value - START
    slow = updated([old, *[old] * 3], deal_scores(0, 30))[0].value - START
    assert fast == pytest.approx(slow * K_PROVISIONAL / K) and slow > 0


@given(values, st.lists(values, min_size=3, max_size=3), seats, per_defender)
def test_a_fixed_rating_never_moves_nor_counts_deals(
    fixed: float, others: list[float], seat: int, a: float
) -> None:
    four = [Rating(v) for v in others]
    four.insert(seat, Rating(fixed, 0, fixed=True))
    after = updated(four, deal_scores(seat, a))
    assert after[seat] == four[seat] and not after[seat].provisional
    assert all(after[s].deals == 1 for s in range(4) if s != seat)


@given(
    st.lists(ratings, min_size=2, max_size=2),
    st.lists(values, min_size=2, max_size=2),
    st.permutations([0, 1, 2, 3]),
    seats,
    per_defender,
)
def test_ai_seats_are_no_opponent_whatever_their_level(
    two: list[Rating], ai: list[float], order: list[int], taker: int, a: float
) -> None:
    """Two humans and two AI: the humans move against each other only, the AI's ratings
    (or none at all) change nothing, and what one gains the other loses at one step."""
    humans, machines = order[:2], order[2:]
    scores = deal_scores(taker, a)
    with_ai: list[Rating | None] = [None] * 4
    without: list[Rating | None] = [None] * 4
    for seat, r in zip(humans, two, strict=True):
        with_ai[seat] = without[seat] = r
    for seat, v in zip(machines, ai, strict=True):
        with_ai[seat] = Rating(v, 0, fixed=True)
    after, after_none = updated(with_ai, scores), updated(without, scores)
    for seat in humans:
        new, same = after[seat], after_none[seat]
        assert new is not None and same is not None
        assert math.isclose(new.value, same.value, abs_tol=1e-9) and new.deals == same.deals
    for seat in machines:
        assert after[seat] == with_ai[seat] and after_none[seat] is None
    # The pair alone: i scored 3/4 of the gap in scores, expected the gap in ratings / 2.
    i, j = humans
    r_i, r_j = two
    new_i = after[i]
    assert new_i is not None
    surprise = 0.75 * (scores[i] - scores[j]) - (r_i.value - r_j.value) / POINTS_SCALE
    assert math.isclose(new_i.value, r_i.value + r_i.step * POINTS_SCALE * surprise)
    if r_i.step == r_j.step:
        moved = [after[s].value - w.value for s, w in zip(humans, two, strict=True)]  # type: ignore[union-attr]
        assert math.isclose(sum(moved), 0, abs_tol=1e-6)


def test_a_human_among_three_ai_moves_nobody() -> None:
    """The old model rated one player against three AI at their fixed ratings (a
    taker's win raised them); humans are now compared with humans only."""
    machines = [Rating(726.2, 0, fixed=True), None, Rating(1537.0, 0, fixed=True)]
    for seat in range(4):
        four: list[Rating | None] = list(machines)
        four.insert(seat, Rating())
        assert updated(four, deal_scores(seat, 50)) == tuple(four)


def test_three_humans_and_one_ai_beaten_by_the_taker() -> None:
    """A taker who makes it by 30 (a = 55) among three humans of one rating: +3a against
    each defender, so 0.2 × 2 × 0.75 × 220 = 66 points; each defender loses 33; the AI's
    -a is nobody's."""
    four: list[Rating | None] = [Rating(), Rating(), None, Rating()]
    after = updated(four, deal_scores(0, 55))
    assert [None if r is None else round(r.value - START, 6) for r in after] == [
        66.0,
        -33.0,
        None,
        -33.0,
    ]


def test_a_leaver_counts_last_below_the_lowest_score() -> None:
    assert last_place([-90.0, 30.0, 30.0, 30.0], 2) == (-90.0, 30.0, -90 - LAST_MARGIN, 30.0)
    assert last_place([90.0, -30.0, -30.0, -30.0], 0) == (
        -30 - LAST_MARGIN,
        -30.0,
        -30.0,
        -30.0,
    )
    # A leaver whose seat then won with the AI still loses to every other human.
    left = last_place(deal_scores(1, 40), 1)
    after = updated([None, Rating(), Rating(), None], left)
    assert after[1] is not None and after[2] is not None
    assert after[1].value < START < after[2].value
    with pytest.raises(RatingError, match="seat 4"):
        last_place([0.0] * 4, 4)


def test_seat_scores_of_sheets() -> None:
    assert seat_scores({"status": "played", "scores": [93, -31, -31, -31]}) == (
        93.0,
        -31.0,
        -31.0,
        -31.0,
    )
    assert seat_scores({"status": "cancelled", "reason": "all_pass", "scores": [0] * 4}) is None


@pytest.mark.parametrize(
    ("sheet", "why"),
    [
        ({"status": "begun"}, "played or cancelled"),
        ({"status": "played", "scores": [1, 2, 3]}, "4 numeric scores"),
        ({"status": "played", "scores": [1, True, -1, 0]}, "4 numeric scores"),
        ({"status": "played", "scores": "0000"}, "4 numeric scores"),
        ({"status": "played", "scores": [3, -1, -1, -2]}, "add up to 0"),
    ],
)
def test_a_bad_sheet_is_refused(sheet: dict[str, object], why: str) -> None:
    with pytest.raises(RatingError, match=why):
        seat_scores(sheet)


def test_a_deal_has_four_seats() -> None:
    with pytest.raises(RatingError, match="4 seats"):
        updated([Rating()] * 3, [0, 0, 0])
    with pytest.raises(RatingError, match="4 seats"):
        expected_scores([START] * 5)
