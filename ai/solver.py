"""Exact endgame: alpha-beta over the last tricks of a perfect-information deal.

The taker's side maximises the final result per defender (``final_value``,
in half points), the defence minimises it: the two sides' scores are exact
opposites, so this is a two-player zero-sum game. A transposition table,
keyed at trick starts by the hands and what the taker's side has gathered,
stores bounds; ``minimax`` is the plain search the tests compare it with.
"""

from __future__ import annotations

from .cardset import bits
from .playout import PlayState, final_value

INF = 1 << 30
Key = tuple[int, int, int, int, int, int, int, int, int]


def solve(state: PlayState, alpha: int = -INF, beta: int = INF) -> int:
    """The exact value of ``state`` (both sides playing perfectly with open cards)."""
    table: dict[Key, tuple[int, int]] = {}
    return _search(state, alpha, beta, table)


def best_moves(state: PlayState) -> dict[int, int]:
    """The exact value of each legal card of the seat to act."""
    table: dict[Key, tuple[int, int]] = {}
    out = {}
    for card in bits(state.legal()):
        child = state.copy()
        child.play(card)
        out[card] = _search(child, -INF, INF, table)
    return out


def _key(s: PlayState) -> Key:
    h = s.hands
    return (
        h[0],
        h[1],
        h[2],
        h[3],
        s.leader,
        s.won[0],
        s.tricks_won[0],
        s.excuse_transfer,
        s.petit_trick,
    )


def _search(s: PlayState, alpha: int, beta: int, table: dict[Key, tuple[int, int]]) -> int:
    if s.n_tricks == 18:
        return final_value(s)
    key = None
    if not s.trick:
        key = _key(s)
        low, high = table.get(key, (-INF, INF))
        if low >= beta:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
    window = (alpha, beta)
    maximizing = s.to_act == s.taker
    best = -INF if maximizing else INF
    legal = s.legal()
    for card in reversed(bits(legal)):
        child = s.copy()
        child.play(card)
        value = _search(child, alpha, beta, table)
        if maximizing:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    if key is not None:
        _store(table, key, best, window)
    return best


def _store(table: dict[Key, tuple[int, int]], key: Key, best: int, window: tuple[int, int]) -> None:
    low, high = table.get(key, (-INF, INF))
    if best <= window[0]:
        high = min(high, best)
    elif best >= window[1]:
        low = max(low, best)
    else:
        low = high = best
    table[key] = (low, high)


def minimax(s: PlayState) -> int:
    """The same value by brute force (no pruning, no table): for tests."""
    if s.n_tricks == 18:
        return final_value(s)
    values = []
    for card in bits(s.legal()):
        child = s.copy()
        child.play(card)
        values.append(minimax(child))
    return max(values) if s.to_act == s.taker else min(values)
