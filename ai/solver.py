"""Exact endgame: alpha-beta over the last tricks of a perfect-information deal.

The taker's side maximises the final result per defender
(``engine.taker_result``, in half points), the defence minimises it:
the two sides' scores are exact opposites, so this is a two-player zero-sum
game. The search makes and unmakes moves on one engine ``Deal``
(``engine.play_card`` / ``undo_play``), so every rule is the engine's;
the deal is handed back unchanged. A transposition table, keyed at trick
starts by the hands and what the taker's side has gathered, stores bounds;
``minimax`` is the plain search the tests compare it with.
"""

from __future__ import annotations

from engine import PETIT, Deal, legal_cards, play_card, taker_result, undo_play

from .cardset import BOUTS, HALF_POINTS, SUIT_OF, cards_of

INF = 1 << 30
Key = tuple[int, int, int, int, int, int, int, int, bool]


def solve(deal: Deal, alpha: int = -INF, beta: int = INF) -> int:
    """The exact value of ``deal`` (both sides playing perfectly with open cards)."""
    table: dict[Key, tuple[int, int]] = {}
    return _search(deal, alpha, beta, table)


def best_moves(deal: Deal) -> dict[int, int]:
    """The exact value of each legal card of the seat to act."""
    table: dict[Key, tuple[int, int]] = {}
    out: dict[int, int] = {}
    for card in cards_of(_legal(deal)):
        undo = play_card(deal, card)
        out[card] = _search(deal, -INF, INF, table)
        undo_play(deal, undo)
    return out


def _legal(deal: Deal) -> int:
    return legal_cards(deal.hands[deal.to_act], deal.trick)


def _key(deal: Deal) -> Key:
    """Everything the rest of the deal's value depends on, at a trick start.

    The last trick is in the key only for whether it held the Petit: the
    petit au bout may be decided by trick 17 (R17, a chelem closed by the Excuse).
    """
    h = deal.hands
    last = deal.tricks[-1].cards if deal.tricks else ()
    return (
        h[0],
        h[1],
        h[2],
        h[3],
        deal.leader,
        deal.won[0],
        deal.tricks_won[0],
        deal.excuse_transfer,
        PETIT in last,
    )


def _search(deal: Deal, alpha: int, beta: int, table: dict[Key, tuple[int, int]]) -> int:
    if deal.is_over:
        return taker_result(deal)
    key = None
    if not deal.trick:
        key = _key(deal)
        low, high = table.get(key, (-INF, INF))
        if low >= beta:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
    window = (alpha, beta)
    maximizing = deal.to_act == deal.taker
    best = -INF if maximizing else INF
    for card in _distinct_moves(deal):
        undo = play_card(deal, card)  # type: ignore[arg-type]
        value = _search(deal, alpha, beta, table)
        undo_play(deal, undo)
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


def _distinct_moves(deal: Deal) -> list[int]:
    """The legal cards, highest first, less those equivalent to a higher one kept.

    Two cards of one suit (or two trumps) with the same points, neither a bout,
    with no card between them left in another hand or on the trick, change
    nothing when swapped: the lower one is left out (a pure search shortcut).
    """
    seat = deal.to_act
    outside = 0
    for other in range(4):
        if other != seat:
            outside |= deal.hands[other]
    for played in deal.trick:
        outside |= 1 << played
    out: list[int] = []
    kept = -1
    for card in reversed(cards_of(_legal(deal))):
        if (
            kept >= 0
            and SUIT_OF[card] == SUIT_OF[kept]
            and HALF_POINTS[card] == HALF_POINTS[kept]
            and not (1 << card | 1 << kept) & BOUTS
            and not outside >> (card + 1) & ((1 << (kept - card - 1)) - 1)
        ):
            continue
        out.append(card)
        kept = card
    return out


def _store(table: dict[Key, tuple[int, int]], key: Key, best: int, window: tuple[int, int]) -> None:
    low, high = table.get(key, (-INF, INF))
    if best <= window[0]:
        high = min(high, best)
    elif best >= window[1]:
        low = max(low, best)
    else:
        low = high = best
    table[key] = (low, high)


def minimax(deal: Deal) -> int:
    """The same value by brute force (no pruning, no table, copies): for tests."""
    if deal.is_over:
        return taker_result(deal)
    values = []
    for card in cards_of(_legal(deal)):
        child = deal.copy()
        play_card(child, card)
        values.append(minimax(child))
    return max(values) if deal.to_act == deal.taker else min(values)
