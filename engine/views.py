"""A seat's view: everything that seat may know now, and nothing more.

This is the only picture of a deal that leaves the engine for a player (the
server sends it, bots decide from it). A spectator's view (``seat=None``) is
the public part. Hidden: other hands, the chien under garde sans / contre, the
non-trump discard (the taker's own), and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Contract
from .bidding import bidder_seat
from .cards import BOUTS, TRUMPS, Card, cards_of, half_points
from .game import NO_ACTIONS, Legal, legal_actions
from .scoring import TARGETS, DealScore, Points, from_halves, score
from .state import NO_SEAT, TAKER_SIDE, Cancellation, Deal, Phase, Trick


@dataclass(frozen=True, slots=True)
class View:
    seat: int | None
    dealer: int
    phase: Phase
    to_act: int  # NO_SEAT when the deal is over
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, int, int, int]
    bids: tuple[tuple[int, Contract], ...]
    taker: int
    contract: Contract
    chien: tuple[Card, ...] | None  # shown for prise and garde
    discard: tuple[Card, ...] | None  # the taker's own view only
    discard_trumps: tuple[Card, ...]
    chelem: bool
    poignees: tuple[tuple[int, tuple[Card, ...]], ...]
    trick_leader: int
    trick: tuple[Card, ...]  # the current trick, from its leader
    tricks: tuple[Trick, ...]
    points: tuple[Points, Points]  # card points in tricks so far: taker's side, defence
    tricks_won: tuple[int, int, int, int]
    legal: Legal
    sheet: DealScore | None
    cancelled: Cancellation | None
    # The live target (R15): bouts in the taker's tricks so far and the points they
    # ask for; and the discard's points, which count for the taker at the end (R6),
    # in the taker's own view only (prise, garde) once the discard is made.
    taker_bouts: int = 0
    target: int = TARGETS[0]
    discard_points: Points | None = None

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_act


def view(deal: Deal, seat: int | None) -> View:
    mine = seat is not None and seat == deal.taker
    shown_chien = deal.taker != NO_SEAT and deal.contract.shows_chien
    tricks_won = [0, 0, 0, 0]
    for trick in deal.tricks:
        tricks_won[trick.winner] += 1
    points = trick_points(deal)
    done = deal.phase is Phase.DONE
    return View(
        seat=seat,
        dealer=deal.dealer,
        phase=deal.phase,
        to_act=deal.to_act,
        hand=tuple(cards_of(deal.hands[seat])) if seat is not None else (),
        hand_sizes=(
            deal.hands[0].bit_count(),
            deal.hands[1].bit_count(),
            deal.hands[2].bit_count(),
            deal.hands[3].bit_count(),
        ),
        bids=tuple((bidder_seat(deal, i), c) for i, c in enumerate(deal.bids)),
        taker=deal.taker,
        contract=deal.contract,
        chien=tuple(cards_of(deal.chien)) if shown_chien else None,
        discard=tuple(cards_of(deal.discard)) if mine and deal.discard else None,
        discard_trumps=tuple(cards_of(deal.discard & TRUMPS)),
        chelem=deal.chelem,
        poignees=tuple((s, tuple(cards_of(m))) for s, m in sorted(deal.poignees.items())),
        trick_leader=deal.leader,
        trick=tuple(deal.trick),
        tricks=tuple(deal.tricks),
        points=points,
        tricks_won=(tricks_won[0], tricks_won[1], tricks_won[2], tricks_won[3]),
        legal=legal_actions(deal) if seat is not None and seat == deal.to_act else NO_ACTIONS,
        sheet=score(deal) if done else None,
        cancelled=deal.cancelled,
        taker_bouts=taker_bouts(deal),
        target=TARGETS[taker_bouts(deal)],
        discard_points=from_halves(half_points(deal.discard)) if mine and deal.discard else None,
    )


def trick_points(deal: Deal) -> tuple[Points, Points]:
    """Card points won in tricks so far by each side, the Excuse's 0.5 included (R13);
    an int when whole (45, not 45.0)."""
    if deal.taker == NO_SEAT:
        return (0, 0)
    taker = half_points(deal.won[TAKER_SIDE]) + deal.excuse_transfer
    defence = half_points(deal.won[1 - TAKER_SIDE]) - deal.excuse_transfer
    return (from_halves(taker), from_halves(defence))


def taker_bouts(deal: Deal) -> int:
    """The bouts in the taker's side's tricks so far (R15; the Excuse kept by its owner)."""
    if deal.taker < 0:
        return 0
    return (deal.won[TAKER_SIDE] & BOUTS).bit_count()
