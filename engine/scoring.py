"""Counting and scoring a finished deal (R15-R20).

Everything is computed in half points (ints) and halved once at the end, so a
score such as 52.5 is exact and nothing is ever rounded (R16).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .actions import Contract
from .cards import BOUTS, half_points
from .declarations import PoigneeLevel
from .errors import DealNotOver
from .state import DEFENCE_SIDE, DONE, NO_SEAT, NO_SIDE, TAKER_SIDE, Cancellation, Deal

TARGETS = (56, 51, 41, 36)  # by bouts held (R15)
PETIT_AU_BOUT = 10  # times the multiplier (R17)
CHELEM_ANNOUNCED_MADE = 400
CHELEM_ANNOUNCED_FAILED = -200
CHELEM_UNANNOUNCED = 200
_GARDE_SANS = Contract.GARDE_SANS  # a global: an enum member read through its class costs ~80 ns

# A number of points, exact: an int when whole (45, not 45.0), a float for a half (52.5).
Points = int | float
SheetStatus = Literal["played", "cancelled"]
BonusKind = Literal["petit_au_bout", "poignee", "chelem"]
SideName = Literal["taker", "defence"]


def from_halves(halves: int) -> Points:
    """An exact half-point value as JSON wants it: 45, not 45.0; 52.5 stays."""
    return halves // 2 if halves % 2 == 0 else halves / 2


@dataclass(frozen=True, slots=True)
class Bonus:
    """One bonus line of the sheet: its kind, who earned it, what it is worth to them."""

    kind: BonusKind
    side: SideName
    points: Points
    seat: int | None = None  # who showed a poignee
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "side": self.side, "points": self.points}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.detail:
            out["detail"] = self.detail
        return out


@dataclass(frozen=True, slots=True)
class DealScore:
    """The score sheet of docs/RECORD.md; ``to_json`` is what ``tarot score`` prints."""

    status: SheetStatus
    scores: tuple[Points, Points, Points, Points]
    reason: Cancellation | None = None
    taker: int = NO_SEAT
    contract: Contract = Contract.PASS
    bouts: int = 0
    points: Points = 0
    target: int = 0
    made: bool = False
    multiplier: int = 0
    contract_score: Points = 0
    per_defender: Points = 0
    bonuses: tuple[Bonus, ...] = ()
    trick_winners: tuple[int, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        if self.status == "cancelled":
            return {"status": "cancelled", "reason": self.reason, "scores": list(self.scores)}
        return {
            "status": self.status,
            "taker": self.taker,
            "contract": self.contract.code,
            "bouts": self.bouts,
            "points": self.points,
            "target": self.target,
            "made": self.made,
            "scores": list(self.scores),
            "multiplier": self.multiplier,
            "contract_score": self.contract_score,
            "per_defender": self.per_defender,
            "bonuses": [b.to_json() for b in self.bonuses],
            "trick_winners": list(self.trick_winners),
        }


def taker_cards(deal: Deal) -> int:
    """The cards that count for the taker's side at the end (R6, R7, R13, R14)."""
    cards = deal.won[TAKER_SIDE]
    if deal.contract.shows_chien:
        cards |= deal.discard
    elif deal.contract is _GARDE_SANS:
        cards |= deal.chien
    return cards


def score(deal: Deal) -> DealScore:
    """The score sheet of a finished or cancelled deal."""
    if deal.phase is not DONE:
        raise DealNotOver("the deal is not over")
    if deal.cancelled:
        return DealScore("cancelled", (0, 0, 0, 0), reason=deal.cancelled)
    bouts, points2, target = _count(deal)
    made = points2 >= 2 * target
    bonuses = _bonuses(deal, made)
    a2 = _per_defender_halves(deal, points2, target, bonuses)
    scores = [from_halves(-a2)] * 4
    scores[deal.taker] = from_halves(3 * a2)
    return DealScore(
        "played",
        (scores[0], scores[1], scores[2], scores[3]),
        taker=deal.taker,
        contract=deal.contract,
        bouts=bouts,
        points=from_halves(points2),
        target=target,
        made=made,
        multiplier=deal.contract.multiplier,
        contract_score=from_halves(_contract_halves(deal, points2, target)),
        per_defender=from_halves(a2),
        bonuses=tuple(bonuses),
        trick_winners=tuple([t.winner for t in deal.tricks]),
    )


def taker_result(deal: Deal) -> int:
    """The taker's result per defender in half points, ``2 * score(deal).per_defender``.

    The fast path for AI search: the same count and bonuses, no sheet. The
    deal must be over; a cancelled deal is worth 0.
    """
    if deal.cancelled:
        return 0
    _, points2, target = _count(deal)
    return _per_defender_halves(deal, points2, target, _bonuses(deal, points2 >= 2 * target))


def _count(deal: Deal) -> tuple[int, int, int]:
    """The taker's bouts, points (half points, R13 transfer included) and target (R15)."""
    cards = taker_cards(deal)
    bouts = (cards & BOUTS).bit_count()
    return bouts, half_points(cards) + deal.excuse_transfer, TARGETS[bouts]


def _contract_halves(deal: Deal, points2: int, target: int) -> int:
    """R16: (25 + the margin) times the multiplier, in half points."""
    return (50 + abs(points2 - 2 * target)) * deal.contract.multiplier


def _per_defender_halves(deal: Deal, points2: int, target: int, bonuses: list[Bonus]) -> int:
    sign = 1 if points2 >= 2 * target else -1
    contract2 = _contract_halves(deal, points2, target)
    if not bonuses:  # most deals: no genexpr to start
        return sign * contract2
    return sign * contract2 + sum(_signed_halves(b) for b in bonuses)


def _side_name(side: int) -> SideName:
    return "taker" if side == TAKER_SIDE else "defence"


def _signed_halves(bonus: Bonus) -> int:
    halves = round(2 * bonus.points)
    return halves if bonus.side == "taker" else -halves


def _bonuses(deal: Deal, made: bool) -> list[Bonus]:
    bonuses = []
    if deal.petit_au_bout != NO_SIDE:
        bonuses.append(
            Bonus(
                "petit_au_bout",
                _side_name(deal.petit_au_bout),
                PETIT_AU_BOUT * deal.contract.multiplier,
            )
        )
    # R18: every poignee goes to the side that wins the contract.
    winner = _side_name(TAKER_SIDE if made else DEFENCE_SIDE)
    for seat, shown in sorted(deal.poignees.items()) if deal.poignees else ():
        level = PoigneeLevel(shown.bit_count())
        bonuses.append(Bonus("poignee", winner, level.bonus, seat=seat, detail=level.code))
    if deal.chelem or 18 in deal.tricks_won:  # else no chelem line (R19)
        bonuses.extend(_chelem_bonuses(deal))
    return bonuses


def _chelem_bonuses(deal: Deal) -> list[Bonus]:
    """R19: announced made +400, announced failed -200, unannounced +200 to the sweeper."""
    taker_swept = deal.tricks_won[TAKER_SIDE] == 18
    defence_swept = deal.tricks_won[DEFENCE_SIDE] == 18
    bonuses = []
    if deal.chelem:
        if taker_swept:
            bonuses.append(Bonus("chelem", "taker", CHELEM_ANNOUNCED_MADE, detail="announced"))
        else:
            bonuses.append(Bonus("chelem", "defence", -CHELEM_ANNOUNCED_FAILED, detail="failed"))
    elif taker_swept:
        bonuses.append(Bonus("chelem", "taker", CHELEM_UNANNOUNCED, detail="unannounced"))
    if defence_swept:
        bonuses.append(Bonus("chelem", "defence", CHELEM_UNANNOUNCED, detail="unannounced"))
    return bonuses
