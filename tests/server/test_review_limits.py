"""A player's deal reviews: one at a time, a bounded number in a sliding window; 0 lifts
both (the benchmark's clients all come from one address)."""

from __future__ import annotations

import pytest

from server.review_limits import PlayerLimits
from server.settings import Settings, SettingsError
from server.transitions import TableRefused


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_player_starts_its_window_s_reviews_then_waits_for_the_oldest_to_age() -> None:
    clock = Clock()
    limits = PlayerLimits(per_window=2, window=60.0, clock=clock)
    for _ in range(2):
        limits.charge("address:1.2.3.4")
        limits.done("address:1.2.3.4")
        clock.now += 10
    with pytest.raises(TableRefused, match="at most 2 reviews per player in 1 min;") as e:
        limits.charge("address:1.2.3.4")
    assert e.value.code == "review_limit" and "the next in 40 s" in e.value.message
    limits.charge("account:7")  # another player is not held back
    limits.done("account:7")
    clock.now += 40  # the first review is a window old
    limits.charge("address:1.2.3.4")


def test_one_review_at_a_time_per_player() -> None:
    limits = PlayerLimits(per_window=10, clock=Clock())
    limits.charge("account:1")
    with pytest.raises(TableRefused, match="a review is already running for you"):
        limits.charge("account:1")
    limits.done("account:1")
    limits.charge("account:1")


def test_no_limit_at_all_with_zero() -> None:
    limits = PlayerLimits(per_window=0, clock=Clock())
    for _ in range(50):
        limits.charge("address:127.0.0.1")  # at once, and many
    for _ in range(50):
        limits.done("address:127.0.0.1")
    assert Settings(reviews_per_player=0).reviews_per_player == 0
    with pytest.raises(SettingsError, match="reviews_per_player cannot be negative"):
        Settings(reviews_per_player=-1)
