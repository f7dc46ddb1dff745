"""Card play on an engine ``Deal`` with every hand known, for search.

The rules are the engine's alone: ``engine.play_card`` moves the cards
and settles each trick (R11-R14, the petit au bout R17), and
``engine.taker_result`` scores the end (R15-R20) as one number, the
taker's result per defender in half points. ``PlayState`` adds only what the
players infer, not what the rules decide: the voids each seat has shown, which
the ``expert`` policy reads in rollouts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine import Deal, led_suit, legal_cards, play_card, taker_result

from .cardset import ALL_CARDS, EXCUSE, SUIT_MASKS, SUIT_OF, TRUMP_SUIT, cards_of
from .expert import Table, play
from .solver import solve


class PlayState:
    """A deal in its play phase, every hand known, and the voids shown so far."""

    __slots__ = ("deal", "voids")

    def __init__(self, deal: Deal, voids: list[int] | None = None) -> None:
        self.deal = deal
        self.voids: list[int] = voids if voids is not None else [0, 0, 0, 0]

    @classmethod
    def from_deal(cls, deal: Deal) -> PlayState:
        """A copy of ``deal`` (in its play phase), the voids read from its tricks."""
        s = cls(deal.copy())
        for trick in deal.tricks:
            s.note_trick(trick.leader, trick.cards)
        s.note_trick(deal.leader, deal.trick)
        return s

    def note_trick(self, leader: int, cards: Sequence[int]) -> None:
        for position in range(1, len(cards)):
            self._note(cards[:position], cards[position], (leader + position) % 4)

    def _note(self, before: Sequence[int], card: int, seat: int) -> None:
        """A card that does not follow the suit led shows a void (and no trump: a trump void)."""
        if card == EXCUSE:
            return
        led = led_suit(before)
        suit = SUIT_OF[card]
        if led >= 0 and suit != led:
            self.voids[seat] |= 1 << led | (16 if suit != TRUMP_SUIT else 0)

    def copy(self) -> PlayState:
        return PlayState(self.deal.copy(), self.voids.copy())

    @property
    def is_over(self) -> bool:
        return self.deal.is_over

    def legal(self) -> int:
        deal = self.deal
        return legal_cards(deal.hands[deal.to_act], deal.trick)

    def play(self, card: int) -> None:
        deal = self.deal
        if deal.trick:
            self._note(deal.trick, card, deal.to_act)
        play_card(deal, card)  # type: ignore[arg-type]


def final_value(s: PlayState) -> int:
    """The taker's result per defender in half points (``engine.taker_result``)."""
    return taker_result(s.deal)


def table_of(s: PlayState, legal: int) -> Table:
    """The expert's picture of the table for the seat to act (no peeking at other hands)."""
    deal = s.deal
    seat = deal.to_act
    hand = deal.hands[seat]
    played = deal.won[0] | deal.won[1]
    for card in deal.trick:
        played |= 1 << card
    trick: list[int] = deal.trick  # type: ignore[assignment]
    return Table(
        seat, deal.taker, hand, legal, trick, deal.leader, ALL_CARDS & ~(hand | played), s.voids
    )


def policy_move(s: PlayState) -> int:
    return play(table_of(s, s.legal()))


def rollout(s: PlayState, rng: random.Random, epsilon: float = 0.0, exact_tricks: int = 0) -> int:
    """Play ``s`` to the end with the expert's policy (``epsilon``: random moves); its value.

    The last ``exact_tricks`` tricks are not played by the policy but solved
    exactly (``solver.solve``): a better value for more time.
    """
    deal = s.deal
    while not deal.is_over:
        if not deal.trick and 18 - len(deal.tricks) <= exact_tricks:
            return solve(deal)
        legal = s.legal()
        if legal & (legal - 1) == 0:
            card = (legal & -legal).bit_length() - 1
        elif epsilon and rng.random() < epsilon:
            options = cards_of(legal)
            card = options[int(rng.random() * len(options))]
        else:
            card = play(table_of(s, legal))
        s.play(card)
    return taker_result(deal)


__all__ = ["SUIT_MASKS", "PlayState", "final_value", "policy_move", "rollout"]
