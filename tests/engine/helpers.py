"""Build deals from card-code strings, and act on them, for scenario tests.

    deal = make_deal(3, ["T1..T6 1S..10S 1H 2H", ...], chien="9C..KC")

A hand is a string of card codes (docs/RECORD.md) where ``A..B`` spans trumps
(``T5..T9``) or one suit in rank order (``2S..JS``). One hand, or the chien,
may be ``None``: it receives every card the others do not hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import engine
from engine import (
    Action,
    Bid,
    Card,
    Contract,
    Deal,
    DeclareChelem,
    Discard,
    Play,
    ShowPoignee,
    TarotError,
    apply,
    apply_in_place,
    parse_card,
    to_record,
)

RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]
ALL_CODES = [f"T{n}" for n in range(1, 22)] + ["EX"] + [r + s for s in "SHDC" for r in RANKS]


def codes(text: str) -> list[str]:
    """Expand ``"T1 T5..T7 JS..KS"`` into ``["T1", "T5", "T6", "T7", "JS", "NS", "QS", "KS"]``."""
    out: list[str] = []
    for token in text.split():
        if ".." in token:
            low, high = token.split("..")
            out.extend(_span(low, high))
        else:
            out.append(token)
    return out


def _span(start: str, end: str) -> list[str]:
    """Trumps or one suit from ``start`` to ``end`` included, upwards or downwards."""
    if start[0] == "T" and end[0] == "T":
        names = [f"T{n}" for n in range(1, 22)]
    else:
        assert start[-1] == end[-1], f"a span stays in one suit: {start}..{end}"
        names = [rank + start[-1] for rank in RANKS]
    first, last = names.index(start), names.index(end)
    return names[first : last + 1] if first <= last else names[last : first + 1][::-1]


def cards(text: str) -> list[Card]:
    return [parse_card(code) for code in codes(text)]


def card_set(text: str) -> frozenset[Card]:
    return frozenset(cards(text))


def code_set(items: Iterable[int]) -> set[str]:
    return {engine.card_code(c) for c in items}


def make_deal(dealer: int, hands: Sequence[str | None], chien: str | None = None) -> Deal:
    """A deal from four hands and the chien as code strings; one of them may be ``None``."""
    parts = [*hands, chien]
    given = [codes(p) for p in parts if p is not None]
    used = [c for part in given for c in part]
    assert len(used) == len(set(used)), "a card is listed twice"
    rest = [c for c in ALL_CODES if c not in set(used)]
    assert sum(p is None for p in parts) <= 1, "at most one part may be the rest"
    filled = [codes(p) if p is not None else rest for p in parts]
    return engine.deal_from_hands(
        dealer, [[parse_card(c) for c in hand] for hand in filled[:4]], cards(" ".join(filled[4]))
    )


# Acting: each helper acts for the seat to act and returns the new state.


def bid(deal: Deal, *contracts: str) -> Deal:
    for code in contracts:
        deal = apply(deal, Bid(deal.to_act, Contract.from_code(code)))
    return deal


def discard(deal: Deal, text: str) -> Deal:
    return apply(deal, Discard(deal.to_act, card_set(text)))


def chelem(deal: Deal, announce: bool = False) -> Deal:
    return apply(deal, DeclareChelem(deal.to_act, announce))


def play(deal: Deal, text: str) -> Deal:
    """Play the cards in order, each by the seat to act."""
    for code in codes(text):
        deal = apply(deal, Play(deal.to_act, parse_card(code)))
    return deal


def show(deal: Deal, text: str) -> Deal:
    return apply(deal, ShowPoignee(deal.to_act, card_set(text)))


def lowest(deal: Deal) -> Card:
    """The lowest legal card of the seat to act (trumps first, then S, H, D, C)."""
    return min(engine.legal_actions(deal).cards)


def play_lowest(deal: Deal, tricks: int) -> Deal:
    """Every seat plays its lowest legal card until ``tricks`` more tricks are done."""
    target = len(deal.tricks) + tricks
    while len(deal.tricks) < target:
        deal = apply(deal, Play(deal.to_act, lowest(deal)))
    return deal


def autoplay(
    deal: Deal,
    script: dict[int, str] | None = None,
    avoid: str = "EX",
    shows: dict[int, str] | None = None,
) -> Deal:
    """Play the deal out. A scripted seat plays its listed cards in order (``-`` for
    "its lowest legal card"), then its lowest legal card; ``avoid`` cards are kept
    for when nothing else is legal. ``shows`` poignees are shown at a seat's first card.
    """
    queues = {seat: codes(text) for seat, text in (script or {}).items()}
    pending = dict(shows or {})
    kept = set(cards(avoid))
    while not deal.is_over:
        seat = deal.to_act
        if seat in pending and not deal.played_by >> seat & 1:
            deal = apply(deal, ShowPoignee(seat, card_set(pending.pop(seat))))
        queue = queues.get(seat) or ["-"]
        code = queue.pop(0)
        if code == "-":
            legal = engine.legal_actions(deal).cards
            card = min(legal, key=lambda c: (c in kept, c))
        else:
            card = parse_card(code)
        deal = apply(deal, Play(seat, card))
    assert not any(queues.values()) and not pending, f"left unplayed: {queues} {pending}"
    return deal


def legal_codes(deal: Deal) -> set[str]:
    """The codes of the cards the seat to act may play now."""
    return code_set(engine.legal_actions(deal).cards)


def refuse(deal: Deal, action: Action, error: type[TarotError], code: str, rule: str) -> TarotError:
    """Assert that ``action`` is refused with this error, code and rule, changing nothing."""
    before = deal.copy()
    record_before = to_record(deal)
    try:
        apply(deal, action)
    except error as e:
        caught: TarotError = e
    else:
        raise AssertionError(f"{action} was accepted")
    assert type(caught) is error, f"{type(caught).__name__} raised, {error.__name__} expected"
    assert caught.code == code, caught.code
    assert caught.rule == rule, caught.rule
    assert deal == before and to_record(deal) == record_before
    in_place = deal.copy()
    try:
        apply_in_place(in_place, action)
    except error:
        pass
    else:  # pragma: no cover - apply and apply_in_place share one path
        raise AssertionError(f"{action} was accepted in place")
    assert in_place == before
    return caught
