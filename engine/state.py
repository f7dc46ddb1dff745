"""The state of one deal: plain data, moved only by the phase machine in ``game``.

Hands are int bitsets (see ``cards``). The state is mutable so that AI search
can copy it cheaply, but the public ``game.apply`` always returns a new state
and leaves its argument untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Final, Literal

from .actions import Contract
from .cards import Card

TAKER_SIDE = 0
DEFENCE_SIDE = 1
# "No seat" (no taker yet, nobody to act once the deal is over) and "no side" (no
# petit au bout): kept as ints so that search loops compare ints, never None.
NO_SEAT = -1
NO_SIDE = -1

Cancellation = Literal["petit_sec", "all_pass"]  # why a deal was cancelled (R3, R4)


class Phase(Enum):
    BIDDING = "bidding"
    DISCARD = "discard"
    CHELEM = "chelem"
    PLAY = "play"
    DONE = "done"


# The phases as module globals for the per-card paths: ``Phase.PLAY`` goes
# through the enum's class attribute lookup, about ten times the cost of a
# global on CPython 3.11, and the play loop reads the phase several times a card.
BIDDING: Final = Phase.BIDDING
DISCARD: Final = Phase.DISCARD
CHELEM: Final = Phase.CHELEM
PLAY: Final = Phase.PLAY
DONE: Final = Phase.DONE


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: ``cards[i]`` was played by seat ``(leader + i) % 4``."""

    leader: int
    cards: tuple[Card, ...]
    winner: int


@dataclass(slots=True)
class Deal:
    dealer: int
    dealt: tuple[int, int, int, int]  # the hands as dealt, for records
    chien: int
    hands: list[int]
    phase: Phase = Phase.BIDDING
    to_act: int = NO_SEAT  # once the deal is over
    bids: list[Contract] = field(default_factory=list)  # in bidding order
    taker: int = NO_SEAT
    contract: Contract = Contract.PASS
    discard: int = 0
    chelem: bool = False
    poignees: dict[int, int] = field(default_factory=dict)  # seat -> shown cards
    played_by: int = 0  # bit s set once seat s has played a card
    leader: int = NO_SEAT
    trick: list[Card] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    won: list[int] = field(default_factory=lambda: [0, 0])  # card bitsets by side
    tricks_won: list[int] = field(default_factory=lambda: [0, 0])  # by side
    excuse_transfer: int = 0  # half points passed to the taker's side (R13), may be < 0
    petit_au_bout: int = NO_SIDE  # the side that won it (R17)
    cancelled: Cancellation | None = None
    # A memo, not the state: the legal cards (``tricks.legal_cards``) of the seat to
    # act, left by ``random_action`` or ``legal_actions`` for ``apply_in_place`` to
    # check the card against, and valid while that seat's hand is ``legal_hand``.
    # The trick changes only through ``tricks.play_card``, ``move_card`` and
    # ``undo_play``, which reset it; a copy starts without it.
    legal_hand: int = field(default=-1, init=False, compare=False, repr=False)
    legal_mask: int = field(default=0, init=False, compare=False, repr=False)

    def copy(self) -> Deal:
        return Deal(
            self.dealer,
            self.dealt,
            self.chien,
            self.hands.copy(),
            self.phase,
            self.to_act,
            self.bids.copy(),
            self.taker,
            self.contract,
            self.discard,
            self.chelem,
            self.poignees.copy(),
            self.played_by,
            self.leader,
            self.trick.copy(),
            self.tricks.copy(),
            self.won.copy(),
            self.tricks_won.copy(),
            self.excuse_transfer,
            self.petit_au_bout,
            self.cancelled,
        )

    @property
    def is_over(self) -> bool:
        return self.phase is DONE

    @property
    def first_bidder(self) -> int:
        """R1: the dealer's right bids first and leads the first trick."""
        return (self.dealer + 1) % 4

    def side_of(self, seat: int) -> int:
        return TAKER_SIDE if seat == self.taker else DEFENCE_SIDE

    def trick_seat(self, position: int) -> int:
        """The seat that plays the ``position``-th card of the current trick."""
        return (self.leader + position) % 4
