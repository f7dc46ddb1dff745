"""Playing cards: what may be played (R11), who wins a trick (R12), the Excuse (R13, R14)
and the petit au bout (R17).

Theory of operation: ``legal_cards`` returns a bitset of the playable cards;
``play_card`` moves one card and, when the trick holds four cards, settles it:
the winner, where the Excuse goes, the 0.5 point it may cost its side, and at
trick 18 the petit au bout. It returns a ``PlayUndo``: what ``undo_play`` needs
to put the deal back exactly as it was, so that search can make and unmake
moves on one ``Deal`` instead of copying it. Nothing here allocates per call
beyond small ints and that record, because AI search runs this loop millions
of times.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import (
    CODES,
    EXCUSE,
    EXCUSE_BIT,
    PETIT,
    SUIT_MASKS,
    SUIT_NAMES,
    TRUMPS,
    Card,
)
from .errors import CardNotInHand, MustFollowSuit, MustOvertrump, MustTrump
from .state import TAKER_SIDE, Deal, Phase, Trick

LAST_TRICK = 17


def led_suit_mask(trick: list[Card]) -> int:
    """The mask of the suit to follow; 0 when any card may be played (R11).

    The first card that is not the Excuse sets the suit.
    """
    for card in trick:
        if card != EXCUSE:
            return TRUMPS if card < 21 else SUIT_MASKS[(card - 22) // 14]
    return 0


def highest_trump(trick: list[Card]) -> int:
    """The index of the highest trump in the trick, or -1."""
    best = -1
    for card in trick:
        if card < 21 and card > best:
            best = card
    return best


def legal_cards(hand: int, trick: list[Card]) -> int:
    """The bitset of cards of ``hand`` that may go on ``trick`` (R11)."""
    suit = led_suit_mask(trick)
    if not suit:
        return hand
    excuse = hand & EXCUSE_BIT
    following = hand & suit
    if following and suit != TRUMPS:
        return following | excuse
    trumps = hand & TRUMPS
    if not trumps:
        return hand
    top = highest_trump(trick)
    over = trumps >> (top + 1) << (top + 1)
    return (over or trumps) | excuse


def refuse_play(deal: Deal, seat: int, card: Card) -> None:
    """Raise the R11 error that explains why ``card`` may not be played."""
    hand = deal.hands[seat]
    code = CODES[card]
    if not hand >> card & 1:
        raise CardNotInHand(f"seat {seat} played {code}, not in hand")
    suit = led_suit_mask(deal.trick)
    if suit != TRUMPS and hand & suit:
        name = SUIT_NAMES[SUIT_MASKS.index(suit)]
        raise MustFollowSuit(f"seat {seat} played {code} but must follow {name}")
    if card >= 21:
        if suit == TRUMPS:
            raise MustFollowSuit(f"seat {seat} played {code} but must follow trumps")
        raise MustTrump(f"seat {seat} played {code} but must play a trump")
    top = CODES[highest_trump(deal.trick)]
    raise MustOvertrump(f"seat {seat} played {code} but must overtrump {top}")


def trick_winner_position(trick: list[Card], is_last: bool, excuse_side_swept: bool) -> int:
    """The position (0-3) of the winning card (R12; R14's exception when flagged)."""
    if is_last and excuse_side_swept and trick[0] == EXCUSE:
        return 0
    suit = led_suit_mask(trick)
    best_position, best_key = 0, -1
    for position, card in enumerate(trick):
        if card < 21:
            key = 100 + card
        elif card != EXCUSE and (1 << card) & suit:
            key = card
        else:
            continue
        if key > best_key:
            best_position, best_key = position, key
    return best_position


class PlayUndo(NamedTuple):
    """What a card play may change that the finished trick does not record."""

    played_by: int
    won_taker: int
    won_defence: int
    excuse_transfer: int


def play_card(deal: Deal, card: Card) -> PlayUndo:
    """Move ``card`` from the seat to act into the trick; settle a full trick.

    The card must be legal (``legal_cards``); ``game.apply`` checks it first.
    """
    seat = deal.to_act
    undo = PlayUndo(deal.played_by, deal.won[0], deal.won[1], deal.excuse_transfer)
    deal.hands[seat] ^= 1 << card
    deal.played_by |= 1 << seat
    deal.trick.append(card)
    if len(deal.trick) < 4:
        deal.to_act = (seat + 1) % 4
    else:
        _settle_trick(deal)
    return undo


def undo_play(deal: Deal, undo: PlayUndo) -> None:
    """Take back the last card played, ``undo`` being what its ``play_card`` returned."""
    if not deal.trick:  # that card completed a trick: reopen it
        last = deal.tricks.pop()
        deal.trick = list(last.cards)
        deal.leader = last.leader
        deal.tricks_won[deal.side_of(last.winner)] -= 1
        deal.won[0], deal.won[1] = undo.won_taker, undo.won_defence
        deal.excuse_transfer = undo.excuse_transfer
        if deal.phase is Phase.DONE:
            deal.phase = Phase.PLAY
            deal.petit_au_bout = -1
    card = deal.trick.pop()
    seat = deal.trick_seat(len(deal.trick))
    deal.hands[seat] |= 1 << card
    deal.played_by = undo.played_by
    deal.to_act = seat


def _settle_trick(deal: Deal) -> None:
    cards = deal.trick
    number = len(deal.tricks)
    is_last = number == LAST_TRICK
    excuse_position = cards.index(EXCUSE) if EXCUSE in cards else -1
    excuse_side = deal.side_of((deal.leader + excuse_position) % 4) if excuse_position >= 0 else -1
    # R14: the Excuse's side took tricks 1-17 and leads it to the last one.
    swept = is_last and excuse_side >= 0 and deal.tricks_won[excuse_side] == LAST_TRICK
    winner = (deal.leader + trick_winner_position(cards, is_last, swept)) % 4
    winning_side = deal.side_of(winner)
    mask = 0
    for card in cards:
        mask |= 1 << card
    if excuse_position >= 0 and not (is_last and swept and excuse_position == 0):
        mask ^= EXCUSE_BIT
        # R13: the Excuse stays with its side; R14: at trick 18 it changes side.
        deal.won[1 - excuse_side if is_last else excuse_side] |= EXCUSE_BIT
        if not is_last and excuse_side != winning_side:
            deal.excuse_transfer += 1 if winning_side == TAKER_SIDE else -1
    deal.won[winning_side] |= mask
    deal.tricks_won[winning_side] += 1
    deal.tricks.append(Trick(deal.leader, tuple(cards), winner))
    deal.trick = []
    deal.leader = winner
    deal.to_act = winner
    if is_last:
        _finish(deal, swept and excuse_position == 0)


def _finish(deal: Deal, ended_with_led_excuse: bool) -> None:
    # R17: T1 in the last trick; after a chelem closed by a led Excuse, trick 17.
    deciding = deal.tricks[LAST_TRICK - 1 if ended_with_led_excuse else LAST_TRICK]
    if PETIT in deciding.cards:
        deal.petit_au_bout = deal.side_of(deciding.winner)
    deal.phase = Phase.DONE
    deal.to_act = -1


__all__ = [
    "PlayUndo",
    "legal_cards",
    "play_card",
    "refuse_play",
    "trick_winner_position",
    "undo_play",
]
