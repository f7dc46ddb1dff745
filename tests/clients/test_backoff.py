"""The pauses between retries: doubling from 0.25 s to 4 s, jittered, bounded in total."""

from __future__ import annotations

import random

import pytest

from clients.python.backoff import Backoff, GaveUp


class Clock:
    """Time that moves only when told: the pauses are the only thing that passes."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def pauses(backoff: Backoff, clock: Clock) -> list[float]:
    taken: list[float] = []
    with pytest.raises(GaveUp):
        while True:
            taken.append(backoff.next_pause())
            clock.now += taken[-1]
    return taken


def test_pauses_double_up_to_the_cap_each_between_half_and_all_of_it() -> None:
    clock = Clock()
    taken = pauses(Backoff(60, rng=random.Random(1), clock=clock), clock)
    for i, pause in enumerate(taken):
        full = min(4.0, 0.25 * 2**i)
        assert full / 2 <= pause <= full
    assert len(taken) > 10 and taken[-1] >= 2.0


def test_the_retries_stop_before_the_bound_is_passed() -> None:
    clock = Clock()
    taken = pauses(Backoff(10, rng=random.Random(2), clock=clock), clock)
    assert 10 - 4 < sum(taken) <= 10  # it gave up when a pause (4 s at most) would pass 10 s
    assert pauses(Backoff(0, clock=clock), clock) == []  # no time: no retry


def test_clients_refused_together_come_back_apart() -> None:
    """Jitter: the same attempt of two clients waits two different times."""
    first = [Backoff(60, rng=random.Random(seed)).next_pause() for seed in range(20)]
    assert len(set(first)) == 20 and all(0.125 <= p <= 0.25 for p in first)
