"""What each seat learns when the deal moves: the events of a transition.

Who may see what is a rule (R6: the discard is the taker's, its trumps are
public; each hand is private), so it is decided here and not by the server.
An event's ``audience`` is the seats that may see it; ``PUBLIC`` (None) means
everyone at the table, spectators included.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, Bid, Contract, DeclareChelem, Discard, Play, ShowPoignee
from .cards import TRUMPS, Card, cards_of, half_points, mask_of
from .declarations import PoigneeLevel
from .game import apply
from .scoring import TARGETS, DealScore, Points, from_halves, score
from .state import Cancellation, Deal, Phase, Trick
from .views import taker_bouts, trick_points

PUBLIC = None


@dataclass(frozen=True, slots=True)
class HandDealt:
    seat: int
    cards: tuple[Card, ...]

    @property
    def audience(self) -> tuple[int, ...]:
        return (self.seat,)


@dataclass(frozen=True, slots=True)
class DealStarted:
    dealer: int
    audience = PUBLIC


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    contract: Contract
    audience = PUBLIC


@dataclass(frozen=True, slots=True)
class TakerKnown:
    taker: int
    contract: Contract
    audience = PUBLIC


@dataclass(frozen=True, slots=True)
class ChienRevealed:
    cards: tuple[Card, ...]
    audience = PUBLIC


@dataclass(frozen=True, slots=True)
class DiscardMade:
    """Public: the discard happened and which trumps it holds (R6)."""

    seat: int
    trumps: tuple[Card, ...]
    audience = PUBLIC


@dataclass(frozen=True, slots=True)
class DiscardKept:
    """Private to the taker: the whole discard, and its card points (R6: the taker's)."""

    seat: int
    cards: tuple[Card, ...]
    points: Points = 0

    @property
    def audience(self) -> tuple[int, ...]:
        return (self.seat,)


@dataclass(frozen=True, slots=True)
class ChelemDeclared:
    seat: int
    announced: bool
    audience = PUBLIC


@dataclass(frozen=True, slots=True)
class PoigneeShown:
    seat: int
    level: PoigneeLevel
    cards: tuple[Card, ...]
    audience = PUBLIC


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card
    audience = PUBLIC


@dataclass(frozen=True, slots=True)
class TrickTaken:
    number: int  # 1-18
    trick: Trick
    points: tuple[Points, Points]  # card points in tricks so far: taker's side, defence (R13)
    taker_bouts: int = 0  # bouts in the taker's tricks so far (R15)
    target: int = TARGETS[0]  # the points those bouts ask for
    audience = PUBLIC


@dataclass(frozen=True, slots=True)
class DealCancelled:
    reason: Cancellation
    audience = PUBLIC


@dataclass(frozen=True, slots=True)
class DealScored:
    sheet: DealScore
    audience = PUBLIC


DealEvent = (
    HandDealt
    | DealStarted
    | BidMade
    | TakerKnown
    | ChienRevealed
    | DiscardMade
    | DiscardKept
    | ChelemDeclared
    | PoigneeShown
    | CardPlayed
    | TrickTaken
    | DealCancelled
    | DealScored
)


def deal_events(deal: Deal) -> list[DealEvent]:
    """The events of a fresh deal: each hand to its seat, and R3's cancellation."""
    events: list[DealEvent] = [DealStarted(deal.dealer)]
    events.extend(HandDealt(s, tuple(cards_of(deal.dealt[s]))) for s in range(4))
    if deal.cancelled:
        events.append(DealCancelled(deal.cancelled))
    return events


def step(deal: Deal, action: Action) -> tuple[Deal, list[DealEvent]]:
    """``apply`` plus the events it produces, each with its audience."""
    after = apply(deal, action)
    events: list[DealEvent] = []
    if isinstance(action, Bid):
        events.append(BidMade(action.seat, action.contract))
        if after.phase is not Phase.BIDDING:
            events.extend(_bidding_closed(after))
    elif isinstance(action, Discard):
        cards = tuple(sorted(action.cards))
        points = from_halves(half_points(mask_of(cards)))
        events.append(DiscardKept(action.seat, cards, points))
        events.append(DiscardMade(action.seat, tuple(c for c in cards if (1 << c) & TRUMPS)))
    elif isinstance(action, DeclareChelem):
        events.append(ChelemDeclared(action.seat, action.announce))
    elif isinstance(action, ShowPoignee):
        level = PoigneeLevel(len(action.cards))
        events.append(PoigneeShown(action.seat, level, tuple(sorted(action.cards))))
    elif isinstance(action, Play):
        events.append(CardPlayed(action.seat, action.card))
        if len(after.tricks) > len(deal.tricks):
            bouts = taker_bouts(after)
            events.append(
                TrickTaken(
                    len(after.tricks), after.tricks[-1], trick_points(after), bouts, TARGETS[bouts]
                )
            )
        if after.phase is Phase.DONE:
            events.append(DealScored(score(after)))
    return after, events


def _bidding_closed(deal: Deal) -> list[DealEvent]:
    if deal.cancelled:
        return [DealCancelled(deal.cancelled)]
    events: list[DealEvent] = [TakerKnown(deal.taker, deal.contract)]
    if deal.contract.shows_chien:
        events.append(ChienRevealed(tuple(cards_of(deal.chien))))
    return events
