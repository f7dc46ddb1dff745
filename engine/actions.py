"""The closed set of actions a seat can take, as small frozen values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .cards import CODES, Card
from .errors import UnknownContract


class Contract(IntEnum):
    """Bids in increasing order (R5); ``PASS`` is the lowest."""

    PASS = 0
    PRISE = 1
    GARDE = 2
    GARDE_SANS = 3
    GARDE_CONTRE = 4

    @property
    def code(self) -> str:
        return self.name.lower()

    @property
    def multiplier(self) -> int:
        return (0, 1, 2, 4, 6)[self]

    @property
    def shows_chien(self) -> bool:
        """Prise and garde show the chien and the taker discards (R6)."""
        return _SHOWS_CHIEN[self]

    @classmethod
    def from_code(cls, code: str) -> Contract:
        """The contract of a bid code, exactly as docs/RECORD.md spells it: ``"garde_sans"``."""
        for contract in cls:
            if contract.code == code:
                return contract
        raise UnknownContract(f"unknown bid {code!r}")


# By contract: a tuple read, where ``self in (Contract.PRISE, Contract.GARDE)`` reads
# two enum members through their class (~80 ns each on CPython 3.11), once a deal.
_SHOWS_CHIEN = (False, True, True, False, False)


@dataclass(frozen=True, slots=True)
class Bid:
    seat: int
    contract: Contract

    def __str__(self) -> str:
        return f"seat {self.seat} bids {self.contract.code}"


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    cards: frozenset[Card]

    def __str__(self) -> str:
        return f"seat {self.seat} discards {' '.join(CODES[c] for c in sorted(self.cards))}"


@dataclass(frozen=True, slots=True)
class DeclareChelem:
    """The taker's decision, once, before the first card (R10)."""

    seat: int
    announce: bool

    def __str__(self) -> str:
        return f"seat {self.seat} {'announces' if self.announce else 'does not announce'} chelem"


@dataclass(frozen=True, slots=True)
class ShowPoignee:
    """Shown by the seat to act, before its own first card (R8, R9)."""

    seat: int
    cards: frozenset[Card]

    def __str__(self) -> str:
        return f"seat {self.seat} shows {' '.join(CODES[c] for c in sorted(self.cards))}"


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    card: Card

    def __str__(self) -> str:
        return f"seat {self.seat} plays {CODES[self.card]}"


Action = Bid | Discard | DeclareChelem | ShowPoignee | Play

# One Play value per seat and card, one Bid per seat and contract, made once:
# the play loop then allocates nothing.
PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(seat, Card(card)) for card in range(78)) for seat in range(4)
)
BIDS: tuple[tuple[Bid, ...], ...] = tuple(
    tuple(Bid(seat, contract) for contract in Contract) for seat in range(4)
)
