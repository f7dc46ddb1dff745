"""The phase machine: what the seat to act may do, and applying it.

Theory of operation. A deal moves through these phases, one seat acting at a
time (``Deal.to_act``):

    BIDDING  each seat once, from the dealer's right           Bid
    DISCARD  prise/garde only: the taker, chien in hand         Discard
    CHELEM   the taker, once: announce chelem or not            DeclareChelem
    PLAY     72 cards; before its own first card a seat may     Play, ShowPoignee
             also show a poignee
    DONE     scored or cancelled (petit sec at the deal, all pass)

``legal_actions`` lists exactly the actions allowed now (for the discard, a
rule rather than every subset). ``apply`` returns the next state or raises a
typed ``IllegalAction`` naming the rule; its argument never changes.
``apply_in_place`` is the same transition without the copy, for AI search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .actions import (
    BIDS,
    PLAYS,
    Action,
    Bid,
    Contract,
    DeclareChelem,
    Discard,
    Play,
    ShowPoignee,
)
from .bidding import apply_bid, bids_above, legal_bids
from .cards import Card
from .chien import DiscardRule, apply_discard, discard_rule
from .declarations import PoigneeOffer, apply_chelem, apply_poignee, poignee_offers
from .errors import (
    DealOver,
    IllegalChelem,
    IllegalDiscard,
    IllegalPoignee,
    NotYourTurn,
    WrongPhase,
)
from .state import BIDDING, CHELEM, DISCARD, DONE, NO_SEAT, PLAY, Cancellation, Deal, Phase
from .tricks import legal_cards, move_card, refuse_play


@dataclass(frozen=True, slots=True)
class Legal:
    """What the seat to act may do now.

    ``actions`` holds every enumerable action (bids, the chelem choice, one
    default poignee per level, each playable card); in the discard phase
    ``discard`` describes every allowed discard instead.
    """

    seat: int
    phase: Phase
    actions: tuple[Action, ...]
    discard: DiscardRule | None = None
    poignees: tuple[PoigneeOffer, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.actions) or self.discard is not None

    @property
    def cards(self) -> list[Card]:
        return [a.card for a in self.actions if isinstance(a, Play)]

    @property
    def bids(self) -> list[Contract]:
        return [a.contract for a in self.actions if isinstance(a, Bid)]


NO_ACTIONS = Legal(NO_SEAT, DONE, ())
CHELEM_CHOICES = tuple((DeclareChelem(s, False), DeclareChelem(s, True)) for s in range(4))
CANCEL_RULES: dict[Cancellation, str] = {"petit_sec": "R3", "all_pass": "R4"}


def legal_actions(deal: Deal) -> Legal:
    seat = deal.to_act
    phase = deal.phase
    if phase is PLAY:
        offers, mask = _play_choices(deal, seat)
        plays = PLAYS[seat]
        actions: list[Action] = [ShowPoignee(seat, o.cards) for o in offers]
        while mask:
            low = mask & -mask
            actions.append(plays[low.bit_length() - 1])
            mask ^= low
        return Legal(seat, phase, tuple(actions), poignees=tuple(offers))
    if phase is BIDDING:
        bids = BIDS[seat]
        return Legal(seat, phase, tuple(bids[c] for c in legal_bids(deal)))
    if phase is DISCARD:
        return Legal(seat, phase, (), discard=discard_rule(deal.hands[seat]))
    if phase is CHELEM:
        return Legal(seat, phase, CHELEM_CHOICES[seat])
    return NO_ACTIONS


def _play_choices(deal: Deal, seat: int) -> tuple[Sequence[PoigneeOffer], int]:
    """The poignees ``seat`` may show now and the bitset of its legal cards (R8, R11).

    ``Legal.actions`` lists the shows first, then the cards, lowest first.
    """
    offers = poignee_offers(deal, seat) if not deal.played_by >> seat & 1 else ()
    return offers, _legal_cards(deal, seat)


def _legal_cards(deal: Deal, seat: int) -> int:
    """``legal_cards`` for the seat to act, left on ``deal`` for ``apply_in_place``."""
    hand = deal.hands[seat]
    mask = deal.legal_mask = legal_cards(hand, deal.trick)
    deal.legal_hand = hand
    return mask


def apply(deal: Deal, action: Action) -> Deal:
    """Return the state after ``action``; raise ``IllegalAction`` (nothing changes)."""
    after = deal.copy()
    apply_in_place(after, action)
    return after


def apply_in_place(deal: Deal, action: Action) -> None:
    """Apply ``action`` to ``deal`` itself. On error ``deal`` is unchanged."""
    if type(action) is Play and deal.phase is PLAY and action.seat == deal.to_act:
        # The common case in one step: every check below before the card's own passes.
        card = action.card
        hand = deal.hands[action.seat]
        legal = deal.legal_mask if hand == deal.legal_hand else legal_cards(hand, deal.trick)
        if not legal >> card & 1:
            refuse_play(deal, action.seat, card)
        move_card(deal, card)
        return
    if deal.phase is DONE:
        why = f" ({deal.cancelled.replace('_', ' ')})" if deal.cancelled else ""
        raise DealOver(
            f"the deal is over{why}; seat {action.seat} cannot act",
            rule=CANCEL_RULES[deal.cancelled] if deal.cancelled else None,
        )
    _check_turn(deal, action)
    if isinstance(action, Play):
        _apply_play(deal, action)
    elif isinstance(action, Bid):
        _require(deal, action, BIDDING)
        apply_bid(deal, action.contract)
    elif isinstance(action, Discard):
        if deal.taker != NO_SEAT and not deal.contract.shows_chien:
            raise IllegalDiscard(
                f"seat {action.seat} discarded but {deal.contract.code} leaves the chien unseen",
                rule="R7",
            )
        _require(deal, action, DISCARD)
        apply_discard(deal, action.cards)
    elif isinstance(action, DeclareChelem):
        _require(deal, action, CHELEM)
        apply_chelem(deal, action.seat, action.announce)
    elif isinstance(action, ShowPoignee):
        _require(deal, action, PLAY)
        apply_poignee(deal, action.seat, action.cards)
    else:  # pragma: no cover - Action is a closed union
        raise TypeError(f"not an action: {action!r}")


def _check_turn(deal: Deal, action: Action) -> None:
    seat = action.seat
    if isinstance(action, DeclareChelem):
        # R10 before R1: the refusal a non-taker needs to hear is the chelem rule.
        if deal.taker != NO_SEAT and seat != deal.taker:
            raise IllegalChelem(f"seat {seat} announced chelem but only the taker may")
        if deal.phase is PLAY:
            when = "after the first card" if deal.played_by else "twice"
            raise IllegalChelem(f"seat {seat} decided on chelem {when}")
    if isinstance(action, ShowPoignee) and deal.phase is PLAY and deal.played_by >> seat & 1:
        raise IllegalPoignee(f"seat {seat} showed a poignee after its first card")
    if seat != deal.to_act:
        raise NotYourTurn(f"seat {seat} acted but it is seat {deal.to_act}'s turn")


def _require(deal: Deal, action: Action, phase: Phase) -> None:
    if deal.phase is not phase:
        raise WrongPhase(
            f"seat {action.seat} cannot {type(action).__name__.lower()} during {deal.phase.value}"
        )


def _apply_play(deal: Deal, action: Play) -> None:
    _require(deal, action, PLAY)
    card = action.card
    if not legal_cards(deal.hands[action.seat], deal.trick) >> card & 1:
        refuse_play(deal, action.seat, card)
    move_card(deal, card)


def random_action(deal: Deal, rng: random.Random) -> Action:
    """A uniformly drawn legal action (any discard allowed by the rule).

    The same draw as ``legal_actions(deal).actions[int(rng.random() * n)]``; in
    the play phase it is made on the legal-card bitset (left on ``deal`` for
    ``apply_in_place``, as ``legal_actions`` does), and bids are drawn from
    ``legal_bids``, without the list of actions.
    """
    phase = deal.phase
    if phase is PLAY:
        seat = deal.to_act
        hand = deal.hands[seat]
        mask = deal.legal_mask = legal_cards(hand, deal.trick)
        deal.legal_hand = hand
        if deal.played_by >> seat & 1:  # past its first card: no poignee, only cards
            for _ in range(int(rng.random() * mask.bit_count())):
                mask &= mask - 1
            return PLAYS[seat][(mask & -mask).bit_length() - 1]
        offers = poignee_offers(deal, seat)
        index = int(rng.random() * (len(offers) + mask.bit_count()))
        if index < len(offers):
            return ShowPoignee(seat, offers[index].cards)
        for _ in range(index - len(offers)):
            mask &= mask - 1
        return PLAYS[seat][(mask & -mask).bit_length() - 1]
    if phase is BIDDING:
        bids = bids_above(deal)
        return BIDS[deal.to_act][bids[int(rng.random() * len(bids))]]
    if phase is DISCARD:
        return Discard(deal.to_act, discard_rule(deal.hands[deal.to_act]).sample(rng))
    if phase is CHELEM:
        return CHELEM_CHOICES[deal.to_act][int(rng.random() * 2)]
    legal = legal_actions(deal)  # none: the deal is over
    return legal.actions[int(rng.random() * len(legal.actions))]
