"""Matchmaking (server/queue/matching.py): groups of four by rating, the spread widening
with the wait, AI after the wait, old opponents avoided while others wait, a blocked
pair never together."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from server.queue.matching import MatchRules, Seeker, kept_apart, match, spread_of

RULES = MatchRules()
NOW = 1_000_000


def seeker(n: int, rating: float, waited_s: float = 0, **kw: object) -> Seeker:
    fields: dict[str, object] = {"mode": "rated", "deals": 1, "avoid": frozenset()}
    fields.update(kw)
    return Seeker(
        ticket_id=f"t{n}",
        player=f"account:{n}",
        rating=rating,
        since_ms=NOW - int(waited_s * 1000),
        **fields,  # type: ignore[arg-type]
    )


def test_four_near_in_rating_make_a_table() -> None:
    groups = match([seeker(i, 1500 + 10 * i) for i in range(4)], NOW, RULES)
    assert [g.tickets for g in groups] == [("t0", "t1", "t2", "t3")]
    assert groups[0].ai == 0


def test_ratings_far_apart_wait_until_the_spread_widens() -> None:
    far = [seeker(0, 1200), seeker(1, 1300), seeker(2, 1500), seeker(3, 1580)]
    assert match(far, NOW, RULES) == []  # 380 apart: more than 150
    waited = [seeker(i, s.rating, 31) for i, s in enumerate(far)]
    assert len(match(waited, NOW, RULES)) == 1  # 400 after 30 s
    farther = [seeker(0, 900), seeker(1, 1300), seeker(2, 1500), seeker(3, 2100)]
    assert match([seeker(i, s.rating, 59) for i, s in enumerate(farther)], NOW, RULES) == []
    assert len(match([seeker(i, s.rating, 61) for i, s in enumerate(farther)], NOW, RULES)) == 1


def test_the_spread_is_the_narrowest_a_member_accepts() -> None:
    # One waited 61 s (anyone), the others just came (150): 300 apart is too far.
    players = [seeker(0, 1000, 61), seeker(1, 1300), seeker(2, 1300), seeker(3, 1300)]
    assert match(players, NOW, RULES) == []


def test_ai_fill_after_the_wait_three_then_two() -> None:
    three = [seeker(i, 1500, 10) for i in range(3)]
    assert match(three, NOW, RULES) == []
    three = [seeker(i, 1500, 46) for i in range(3)]
    assert [g.ai for g in match(three, NOW, RULES)] == [1]
    two = [seeker(i, 1500, 50) for i in range(2)]
    assert match(two, NOW, RULES) == []
    two = [seeker(i, 1500, 61) for i in range(2)]
    assert [g.ai for g in match(two, NOW, RULES)] == [2]
    assert match([seeker(0, 1500, 1000)], NOW, RULES) == []  # alone: play_now is its choice


def test_pools_do_not_mix() -> None:
    players = [seeker(i, 1500, mode="rated" if i % 2 else "casual") for i in range(4)]
    assert match(players, NOW, RULES) == []
    players = [seeker(i, 1500, deals=1 + i % 2) for i in range(4)]
    assert match(players, NOW, RULES) == []


def test_the_two_last_opponents_are_avoided_when_others_wait() -> None:
    last = frozenset({"account:1", "account:2"})
    players = [seeker(0, 1500, 5, avoid=last), *(seeker(i, 1500) for i in range(1, 7))]
    (group, *_) = match(players, NOW, RULES)
    assert group.tickets[0] == "t0" and not set(group.players) & last
    # Nobody else: they meet again rather than wait.
    (group,) = match(players[:4], NOW, RULES)
    assert set(group.players) >= last


def test_a_blocked_pair_is_never_grouped_even_when_nobody_else_waits() -> None:
    blocked = {frozenset({"account:0", "account:1"})}
    players = [seeker(i, 1500, 61) for i in range(4)]
    groups = match(players, NOW, RULES, blocked)
    assert all(not {"account:0", "account:1"} <= set(g.players) for g in groups)
    assert [len(g.tickets) for g in groups] == [3]  # the one left out waits
    assert match(players[:2], NOW, RULES, blocked) == []  # two and two AI: not these two


def test_the_longest_waiter_is_served_first() -> None:
    players = [seeker(i, 1500, waited_s=i) for i in range(5)]
    (group,) = match(players, NOW, RULES)
    assert "t4" in group.tickets and "t0" not in group.tickets


def test_the_spreads_setting() -> None:
    assert RULES.spread(0) == 150 and RULES.spread(30_000) == 400
    assert RULES.spread(60_000) == math.inf


seekers = st.lists(
    st.builds(
        lambda n, r, w, mode, deals, avoid: seeker(
            n, r, w, mode=mode, deals=deals, avoid=frozenset(f"account:{a}" for a in avoid)
        ),
        st.integers(0, 40),
        st.integers(800, 2400),
        st.integers(0, 120),
        st.sampled_from(["rated", "casual"]),
        st.integers(1, 2),
        st.lists(st.integers(0, 40), max_size=2),
    ),
    max_size=40,
    unique_by=lambda s: s.ticket_id,
)


pairs = st.sets(
    st.frozensets(st.integers(0, 40).map(lambda a: f"account:{a}"), min_size=2, max_size=2),
    max_size=30,
)


@given(seekers, pairs)
def test_nobody_is_matched_twice_and_every_spread_is_respected(
    players: list[Seeker], blocked: set[frozenset[str]]
) -> None:
    by_ticket = {s.ticket_id: s for s in players}
    groups = match(players, NOW, RULES, blocked)
    seated = [t for g in groups for t in g.tickets]
    assert len(seated) == len(set(seated))
    for group in groups:
        members = [by_ticket[t] for t in group.tickets]
        assert len(members) + group.ai == 4 and len(members) >= 2
        assert len({m.player for m in members}) == len(members)
        assert {(m.mode, m.deals) for m in members} == {(group.mode, group.deals)}
        for m in members:
            assert spread_of(members) <= RULES.spread(NOW - m.since_ms)
        longest = max(NOW - m.since_ms for m in members)
        assert len(members) >= RULES.least_humans(longest)
        assert not kept_apart(group.players, blocked)


@given(seekers)
def test_a_full_pool_of_near_ratings_leaves_fewer_than_four_behind(players: list[Seeker]) -> None:
    same = [Seeker(s.ticket_id, f"account:{s.ticket_id}", 1500, "rated", 1, NOW) for s in players]
    groups = match(same, NOW, RULES)
    assert len(same) - 4 * len(groups) < 4
