"""A player's deal reviews: one at a time, a bounded number in a sliding window; 0 lifts
both (the benchmark's clients all come from one address). Counted on the node with the
memory store, in Redis (the same count for every node) with the Redis store."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest

from server.node.review_limits import Limits, PlayerLimits
from server.settings import Settings, SettingsError
from server.store.redis.review_limits import SharedPlayerLimits
from server.store.redis.store import RedisStore
from server.table.transitions import TableRefused

from ..conftest import REDIS_TEST_URL, flush

Make = Callable[[int, float], Limits]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def make(request: pytest.FixtureRequest, clock: Clock) -> AsyncIterator[Make]:
    """Limits of either kind; two made in one test share their count (two nodes) in Redis."""
    if request.param == "memory":
        yield lambda per, window: PlayerLimits(per, window, clock)
        return
    await flush(REDIS_TEST_URL)
    store = await RedisStore.connect(REDIS_TEST_URL)
    try:
        yield lambda per, window: SharedPlayerLimits(store, per, window, clock)
    finally:
        await store.close()
        await flush(REDIS_TEST_URL)


async def test_a_player_starts_its_window_s_reviews_then_waits_for_the_oldest_to_age(
    make: Make, clock: Clock
) -> None:
    limits = make(2, 60.0)
    for _ in range(2):
        await limits.charge("address:1.2.3.4")
        await limits.done("address:1.2.3.4")
        clock.now += 10
    with pytest.raises(TableRefused, match="at most 2 reviews per player in 1 min;") as e:
        await limits.charge("address:1.2.3.4")
    assert e.value.code == "review_limit" and "the next in 40 s" in e.value.message
    await limits.charge("account:7")  # another player is not held back
    await limits.done("account:7")
    clock.now += 40  # the first review is a window old
    await limits.charge("address:1.2.3.4")


async def test_one_review_at_a_time_per_player(make: Make) -> None:
    limits = make(10, 3600.0)
    await limits.charge("account:1")
    with pytest.raises(TableRefused, match="a review is already running for you"):
        await limits.charge("account:1")
    await limits.done("account:1")
    await limits.charge("account:1")


async def test_no_limit_at_all_with_zero(make: Make) -> None:
    limits = make(0, 3600.0)
    for _ in range(50):
        await limits.charge("address:127.0.0.1")  # at once, and many
    for _ in range(50):
        await limits.done("address:127.0.0.1")
    assert Settings(reviews_per_player=0).reviews_per_player == 0
    with pytest.raises(SettingsError, match="reviews_per_player cannot be negative"):
        Settings(reviews_per_player=-1)


@pytest.mark.redis
async def test_nodes_sharing_redis_share_a_player_s_count(clock: Clock) -> None:
    await flush(REDIS_TEST_URL)
    first, second = [await RedisStore.connect(REDIS_TEST_URL) for _ in range(2)]
    try:
        one, two = (SharedPlayerLimits(s, 2, 3600.0, clock) for s in (first, second))
        await one.charge("account:1")
        with pytest.raises(TableRefused, match="already running"):
            await two.charge("account:1")  # the player's review runs on the other node
        await one.done("account:1")
        await two.charge("account:1")
        await two.done("account:1")
        with pytest.raises(TableRefused, match="at most 2 reviews per player"):
            await one.charge("account:1")
    finally:
        for store in (first, second):
            await store.close()
        await flush(REDIS_TEST_URL)
