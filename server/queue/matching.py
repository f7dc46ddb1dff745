"""Matchmaking without I/O: which searching players sit down together.

Theory of operation: the searching players are split into pools (rated or casual, and
the number of deals: players of one table want the same game). In a pool the player
who has waited longest is served first: the others are tried nearest in rating first,
a player's two last opponents last (so they meet again only when nobody else waits),
and a group grows while its ratings stay within the spread every member allows. The
spread widens with waiting (``MatchRules.spreads``: 150 points, 400 after 30 s, anyone
after 60 s by default). Four make a table; after ``fill_three_seconds`` the longest
waiter may start with three and an AI, after ``fill_two_seconds`` with two and two AI.
A player alone is never seated with three AI by the matcher (``play_now`` is the
player's own choice). Two players of a blocked pair (``blocked``: one blocked the other,
either way) are never in one group, whoever waits.

Pure: ``match`` takes the seekers and the time and returns the groups; the store and
the node do the rest (``server/node/quickplay.py``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

TABLE_SIZE = 4


@dataclass(frozen=True, slots=True)
class Seeker:
    """One ticket as the matcher sees it."""

    ticket_id: str
    player: str  # "account:ID" or "guest:ID": who it is, whatever the connection
    rating: float
    mode: str  # "rated" or "casual"
    deals: int
    since_ms: int  # when it queued (kept when it goes back in after a ready check)
    avoid: frozenset[str] = frozenset()  # its two last opponents' players


@dataclass(frozen=True, slots=True)
class MatchRules:
    """How far apart ratings may be after a wait, and when AI fill a group."""

    # (after this many seconds of waiting, this spread of ratings); inf: anyone.
    spreads: tuple[tuple[float, float], ...] = ((0.0, 150.0), (30.0, 400.0), (60.0, math.inf))
    fill_three_seconds: float = 45.0  # then three humans and one AI
    fill_two_seconds: float = 60.0  # then two humans and two AI

    def spread(self, waited_ms: int) -> float:
        """The spread of ratings a player who waited ``waited_ms`` accepts."""
        allowed = 0.0
        for after, spread in self.spreads:
            if waited_ms >= after * 1000:
                allowed = spread
        return allowed

    def least_humans(self, waited_ms: int) -> int:
        """How few humans a group whose longest waiter waited ``waited_ms`` may start with."""
        if waited_ms >= self.fill_two_seconds * 1000:
            return 2
        if waited_ms >= self.fill_three_seconds * 1000:
            return 3
        return TABLE_SIZE


@dataclass(frozen=True, slots=True)
class Group:
    """Players to seat at one table (longest waiter first) and the AI seats beside them."""

    tickets: tuple[str, ...]
    players: tuple[str, ...]
    mode: str
    deals: int
    ai: int = field(default=0)


Pairs = Collection[frozenset[str]]  # pairs of ``Seeker.player`` never grouped


def match(
    seekers: Iterable[Seeker], now_ms: int, rules: MatchRules, blocked: Pairs = frozenset()
) -> list[Group]:
    """The groups to propose now; each seeker is in one group at most, and no group holds
    both players of a ``blocked`` pair."""
    pools: dict[tuple[str, int], list[Seeker]] = defaultdict(list)
    for seeker in seekers:
        pools[(seeker.mode, seeker.deals)].append(seeker)
    groups: list[Group] = []
    for pool in pools.values():
        groups.extend(_match_pool(pool, now_ms, rules, blocked))
    return groups


def kept_apart(players: Iterable[str], blocked: Pairs) -> bool:
    """Whether two of ``players`` are a blocked pair."""
    group = list(players)
    return any(frozenset((a, b)) in blocked for i, a in enumerate(group) for b in group[i + 1 :])


def _match_pool(pool: list[Seeker], now_ms: int, rules: MatchRules, blocked: Pairs) -> list[Group]:
    waiting = sorted(pool, key=lambda s: (s.since_ms, s.ticket_id))
    taken: set[str] = set()
    groups: list[Group] = []
    for first in waiting:
        if first.ticket_id in taken:
            continue
        free = [s for s in waiting if s.ticket_id not in taken]
        members = _grow(first, free, now_ms, rules, blocked)
        least = rules.least_humans(now_ms - first.since_ms)
        if len(members) >= least:
            taken.update(s.ticket_id for s in members)
            groups.append(_group(members))
    return groups


def _grow(
    first: Seeker, free: Sequence[Seeker], now_ms: int, rules: MatchRules, blocked: Pairs
) -> list[Seeker]:
    """``first`` and up to three others, nearest in rating first; a member's last
    opponents only when the group cannot fill without them; a blocked pair never."""
    members = [first]
    others = sorted(
        (s for s in free if s.ticket_id != first.ticket_id),
        key=lambda s: (abs(s.rating - first.rating), s.since_ms, s.ticket_id),
    )
    for strict in (True, False):
        for other in others:
            if len(members) == TABLE_SIZE:
                return members
            if other in members or (strict and _meets_again(other, members)):
                continue
            if blocked and kept_apart((other.player, *(m.player for m in members)), blocked):
                continue
            if _fits([*members, other], now_ms, rules):
                members.append(other)
    return members


def _meets_again(seeker: Seeker, members: Sequence[Seeker]) -> bool:
    return any(m.player in seeker.avoid or seeker.player in m.avoid for m in members)


def _fits(members: Sequence[Seeker], now_ms: int, rules: MatchRules) -> bool:
    """Ratings within the narrowest spread a member accepts, and one player once."""
    if len({m.player for m in members}) < len(members):
        return False
    ratings = [m.rating for m in members]
    allowed = min(rules.spread(now_ms - m.since_ms) for m in members)
    return max(ratings) - min(ratings) <= allowed


def _group(members: Sequence[Seeker]) -> Group:
    return Group(
        tickets=tuple(m.ticket_id for m in members),
        players=tuple(m.player for m in members),
        mode=members[0].mode,
        deals=members[0].deals,
        ai=TABLE_SIZE - len(members),
    )


def spread_of(members: Sequence[Seeker]) -> float:
    """The spread of ratings of a group (tests, logs)."""
    ratings = [m.rating for m in members]
    return max(ratings) - min(ratings)
