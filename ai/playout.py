"""A fast perfect-information copy of the card play, for search.

``PlayState`` holds only what card play and the final score need, as ints,
so it copies in about a microsecond. Its rules are the engine's (R11-R20:
``engine.tricks`` for what may be played and who wins, the Excuse as R13/R14,
the petit au bout, poignees, chelem); ``final_value`` is exactly twice the
engine's ``per_defender`` (the taker's result per defender, in half points),
which the tests check on random deals.
"""

from __future__ import annotations

import random

from engine import Contract, Deal
from engine.cards import BOUTS, half_points
from engine.declarations import PoigneeLevel
from engine.scoring import TARGETS
from engine.tricks import legal_cards, trick_winner_position

from .cardset import EXCUSE, EXCUSE_BIT, PETIT, SUIT_MASKS, bits
from .expert import Table, play

ALL = (1 << 78) - 1
LAST_TRICK = 17


class PlayState:
    """The play phase of one deal with every hand known."""

    __slots__ = (
        "chelem",
        "excuse_transfer",
        "extra",
        "hands",
        "leader",
        "mult",
        "n_tricks",
        "petit_au_bout",
        "petit_trick",
        "played",
        "poignee_halves",
        "taker",
        "to_act",
        "trick",
        "tricks_won",
        "voids",
        "won",
    )

    def __init__(self) -> None:
        self.hands: list[int] = [0, 0, 0, 0]
        self.trick: list[int] = []
        self.leader = 0
        self.to_act = 0
        self.taker = 0
        self.won: list[int] = [0, 0]  # by side: 0 the taker's, 1 the defence
        self.tricks_won: list[int] = [0, 0]
        self.excuse_transfer = 0
        self.n_tricks = 0
        self.petit_au_bout = -1
        self.petit_trick = -1  # 2 * trick index + side, once the Petit fell
        self.played = 0
        self.voids: list[int] = [0, 0, 0, 0]
        self.extra = 0  # cards counting for the taker at the end (discard, chien)
        self.mult = 1
        self.poignee_halves = 0  # the poignee bonuses, doubled, to the contract's winner
        self.chelem = False

    @classmethod
    def from_deal(cls, deal: Deal) -> PlayState:
        """The state of ``deal`` (in its play phase), voids read from its tricks."""
        s = cls()
        s.hands = deal.hands.copy()
        s.trick = list(deal.trick)
        s.leader = deal.leader
        s.to_act = deal.to_act
        s.taker = deal.taker
        s.won = deal.won.copy()
        s.tricks_won = deal.tricks_won.copy()
        s.excuse_transfer = deal.excuse_transfer
        s.n_tricks = len(deal.tricks)
        s.petit_au_bout = deal.petit_au_bout
        s.set_contract(deal.contract, deal.discard, deal.chien)
        s.poignee_halves = 2 * sum(
            PoigneeLevel(m.bit_count()).bonus for m in deal.poignees.values()
        )
        s.chelem = deal.chelem
        for number, trick in enumerate(deal.tricks):
            s.note_trick(trick.leader, list(trick.cards))
            if PETIT in trick.cards:
                s.petit_trick = 2 * number + s._side(trick.winner)
        s.note_trick(deal.leader, s.trick)
        return s

    def set_contract(self, contract: Contract, discard: int, chien: int) -> None:
        self.mult = contract.multiplier
        if contract.shows_chien:
            self.extra = discard
        elif contract is Contract.GARDE_SANS:
            self.extra = chien
        else:
            self.extra = 0

    def note_trick(self, leader: int, cards: list[int]) -> None:
        led = -1
        for position, card in enumerate(cards):
            self.played |= 1 << card
            if card == EXCUSE:
                continue
            suit = 4 if card < 21 else (card - 22) // 14
            if led < 0:
                led = suit
            elif suit != led:
                player = (leader + position) % 4
                self.voids[player] |= 1 << led | (16 if suit != 4 else 0)

    def copy(self) -> PlayState:
        s = PlayState.__new__(PlayState)
        s.hands = self.hands.copy()
        s.trick = self.trick.copy()
        s.leader = self.leader
        s.to_act = self.to_act
        s.taker = self.taker
        s.won = self.won.copy()
        s.tricks_won = self.tricks_won.copy()
        s.excuse_transfer = self.excuse_transfer
        s.n_tricks = self.n_tricks
        s.petit_au_bout = self.petit_au_bout
        s.petit_trick = self.petit_trick
        s.played = self.played
        s.voids = self.voids.copy()
        s.extra = self.extra
        s.mult = self.mult
        s.poignee_halves = self.poignee_halves
        s.chelem = self.chelem
        return s

    @property
    def is_over(self) -> bool:
        return self.n_tricks == 18

    def legal(self) -> int:
        return legal_cards(self.hands[self.to_act], self.trick)  # type: ignore[arg-type]

    def play(self, card: int) -> None:
        seat = self.to_act
        self.hands[seat] ^= 1 << card
        self.played |= 1 << card
        trick = self.trick
        if trick and card != EXCUSE:
            led = _led(trick)
            suit = 4 if card < 21 else (card - 22) // 14
            if led >= 0 and suit != led:
                self.voids[seat] |= 1 << led | (16 if suit != 4 else 0)
        trick.append(card)
        if len(trick) < 4:
            self.to_act = (seat + 1) % 4
            return
        self._settle()

    def _side(self, seat: int) -> int:
        return 0 if seat == self.taker else 1

    def _settle(self) -> None:
        cards = self.trick
        is_last = self.n_tricks == LAST_TRICK
        excuse_position = cards.index(EXCUSE) if EXCUSE in cards else -1
        excuse_side = (
            self._side((self.leader + excuse_position) % 4) if excuse_position >= 0 else -1
        )
        swept = is_last and excuse_side >= 0 and self.tricks_won[excuse_side] == LAST_TRICK
        position = trick_winner_position(cards, is_last, swept)  # type: ignore[arg-type]
        winner = (self.leader + position) % 4
        side = self._side(winner)
        m = 0
        for card in cards:
            m |= 1 << card
        if excuse_position >= 0 and not (is_last and swept and excuse_position == 0):
            m ^= EXCUSE_BIT
            self.won[1 - excuse_side if is_last else excuse_side] |= EXCUSE_BIT
            if not is_last and excuse_side != side:
                self.excuse_transfer += 1 if side == 0 else -1
        self.won[side] |= m
        self.tricks_won[side] += 1
        if m & 1:  # the Petit: remember in which trick and for whom (R17)
            self.petit_trick = self.n_tricks * 2 + side
        self.n_tricks += 1
        if is_last:
            # R17: trick 18, or trick 17 when a chelem ends with the Excuse led.
            deciding = LAST_TRICK - 1 if swept and excuse_position == 0 else LAST_TRICK
            if self.petit_trick >> 1 == deciding:
                self.petit_au_bout = self.petit_trick & 1
        self.trick = []
        self.leader = winner
        self.to_act = winner


def _led(trick: list[int]) -> int:
    for card in trick:
        if card != EXCUSE:
            return 4 if card < 21 else (card - 22) // 14
    return -1


def final_value(s: PlayState) -> int:
    """The taker's result per defender, doubled (engine ``per_defender`` x 2), R15-R20."""
    cards = s.won[0] | s.extra
    bouts = (cards & BOUTS).bit_count()
    points2 = half_points(cards) + s.excuse_transfer
    target2 = 2 * TARGETS[bouts]
    made = points2 >= target2
    contract2 = (50 + abs(points2 - target2)) * s.mult
    a2 = contract2 if made else -contract2
    if s.petit_au_bout >= 0:
        a2 += 20 * s.mult if s.petit_au_bout == 0 else -20 * s.mult
    a2 += s.poignee_halves if made else -s.poignee_halves
    if s.chelem:
        a2 += 800 if s.tricks_won[0] == 18 else -400
    elif s.tricks_won[0] == 18:
        a2 += 400
    if s.tricks_won[1] == 18:
        a2 -= 400
    return a2


def table_of(s: PlayState, legal: int) -> Table:
    """The expert's picture of the table for the seat to act (no peeking at other hands)."""
    seat = s.to_act
    hand = s.hands[seat]
    return Table(seat, s.taker, hand, legal, s.trick, s.leader, ALL & ~(hand | s.played), s.voids)


def policy_move(s: PlayState) -> int:
    return play(table_of(s, s.legal()))


def rollout(s: PlayState, rng: random.Random, epsilon: float = 0.0) -> int:
    """Play ``s`` to the end with the expert's policy (``epsilon``: random moves); its value."""
    while s.n_tricks < 18:
        legal = s.legal()
        if legal & (legal - 1) == 0:
            card = (legal & -legal).bit_length() - 1
        elif epsilon and rng.random() < epsilon:
            options = bits(legal)
            card = options[int(rng.random() * len(options))]
        else:
            card = play(table_of(s, legal))
        s.play(card)
    return final_value(s)


__all__ = ["SUIT_MASKS", "PlayState", "final_value", "policy_move", "rollout"]
