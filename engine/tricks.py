"""Playing cards: what may be played (R11), who wins a trick (R12), the Excuse (R13, R14)
and the petit au bout (R17).

Theory of operation: ``legal_cards`` returns a bitset of the playable cards;
``play_card`` moves one card and, when the trick holds four cards, settles it:
the winner, where the Excuse goes, the 0.5 point it may cost its side, and at
trick 18 the petit au bout. It returns a ``PlayUndo``: what ``undo_play`` needs
to put the deal back exactly as it was, so that search can make and unmake
moves on one ``Deal`` instead of copying it; ``move_card`` is the same move
without that record, for ``game.apply_in_place``. ``winning_position`` and
``beating_cards`` answer R12 on a trick still being played, so that search
asks which card wins, and which cards would, instead of comparing ranks
itself. Nothing here allocates per call beyond small ints and that record,
because AI search runs this loop millions of times.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import (
    CODES,
    EXCUSE,
    EXCUSE_BIT,
    HIGHER_OF,
    PETIT,
    SUIT_MASK_OF,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_OF,
    TRUMPS,
    Card,
)
from .errors import MustFollowSuit, MustOvertrump, MustTrump, PlayedNotInHand
from .state import DEFENCE_SIDE, DONE, NO_SEAT, NO_SIDE, PLAY, TAKER_SIDE, Deal, Trick

LAST_TRICK = 17


def led_suit_mask(trick: Sequence[int]) -> int:
    """The mask of the suit to follow; 0 when any card may be played (R11).

    The first card that is not the Excuse sets the suit.
    """
    if not trick:
        return 0
    first = trick[0]
    if first != EXCUSE:
        return SUIT_MASK_OF[first]
    return SUIT_MASK_OF[trick[1]] if len(trick) > 1 else 0


def led_suit(trick: Sequence[int]) -> int:
    """The suit number (``cards.suit_of``) to follow, or -1 while none is set (R11)."""
    for card in trick:
        if card != EXCUSE:
            return SUIT_OF[card]
    return -1


def highest_trump(trick: Sequence[int]) -> int:
    """The index of the highest trump in the trick, or -1."""
    best = -1
    for card in trick:
        if card < 21 and card > best:
            best = card
    return best


def legal_cards(hand: int, trick: Sequence[int]) -> int:
    """The bitset of cards of ``hand`` that may go on ``trick`` (R11).

    Follow the suit led (the first card that is not the Excuse); else, or when
    trumps are led, trump and overtrump when possible; the Excuse always.
    ``led_suit_mask`` and ``highest_trump`` written out: search calls this for
    every card it tries.

    >>> from engine import card_code, cards_of, legal_cards, mask_of, parse_cards
    >>> hand = mask_of(parse_cards(["2H", "T3", "EX", "KS"]))
    >>> [card_code(c) for c in cards_of(legal_cards(hand, parse_cards(["10H"])))]
    ['EX', '2H']
    >>> [card_code(c) for c in cards_of(legal_cards(hand, parse_cards(["10D"])))]
    ['T3', 'EX']
    """
    if not trick:
        return hand
    led = trick[0]
    if led == EXCUSE:
        if len(trick) == 1:
            return hand
        led = trick[1]
    if led > EXCUSE:
        following = hand & SUIT_MASK_OF[led]
        if following:
            return following | hand & EXCUSE_BIT
    trumps = hand & TRUMPS
    if not trumps:
        return hand
    top = -1
    for card in trick:
        if card < 21 and card > top:
            top = card
    over = trumps >> (top + 1) << (top + 1)
    return (over or trumps) | hand & EXCUSE_BIT


def refuse_play(deal: Deal, seat: int, card: Card) -> None:
    """Raise the R11 error that explains why ``card`` may not be played."""
    hand = deal.hands[seat]
    code = CODES[card]
    if not hand >> card & 1:
        raise PlayedNotInHand(f"seat {seat} played {code}, not in hand")
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


def winning_position(trick: Sequence[int]) -> int:
    """The position (0-3) of the card winning the trick so far (R12), -1 if only the Excuse.

    The highest trump, else the highest card of the suit led; the Excuse never
    wins (R13). Search reads it on tricks still being played.
    """
    suit = led_suit_mask(trick)
    best_position, best_key, position = -1, -1, 0
    for card in trick:
        if card < 21:
            key = 100 + card
        elif card != EXCUSE and (1 << card) & suit:
            key = card
        else:
            key = -1
        if key > best_key:
            best_position, best_key = position, key
        position += 1
    return best_position


def beating_cards(trick: Sequence[int], cards: int) -> int:
    """The cards of the bitset ``cards`` that would win ``trick`` if played to it now (R12).

    Above the winning card: higher trumps when it is a trump, else every trump
    and the higher cards of its suit (the suit led); on a trick not begun, or
    holding only the Excuse, every card but the Excuse, which never wins
    (R13). Whether a card may be played is ``legal_cards``'s question (R11):
    search asks this of legal cards, or of the cards another seat may hold.

    >>> from engine import beating_cards, card_code, cards_of, mask_of, parse_cards
    >>> trick = parse_cards(["10H", "KH"])
    >>> hand = mask_of(parse_cards(["QH", "1S", "T2", "EX"]))
    >>> [card_code(c) for c in cards_of(beating_cards(trick, hand))]
    ['T2']
    >>> [card_code(c) for c in cards_of(beating_cards(trick + parse_cards(["T5"]), hand))]
    []
    """
    # ``winning_position`` on the trick's bitset, written out: the expert's rollouts ask
    # this several times a card. The winner is the highest card of the trumps, else of
    # the suit led, in the trick.
    mask = 0
    for card in trick:
        mask |= 1 << card
    trumps = mask & TRUMPS
    if trumps:
        return cards & HIGHER_OF[trumps.bit_length() - 1]
    led = mask & ~EXCUSE_BIT and SUIT_MASK_OF[trick[1] if trick[0] == EXCUSE else trick[0]]
    if not led:
        return cards & ~EXCUSE_BIT
    return cards & TRUMPS | cards & HIGHER_OF[(mask & led).bit_length() - 1]


def trick_winner_position(trick: Sequence[int], is_last: bool, excuse_side_swept: bool) -> int:
    """The position (0-3) of the winning card (R12; R14's exception when flagged)."""
    if is_last and excuse_side_swept and trick[0] == EXCUSE:
        return 0
    return winning_position(trick)


class PlayUndo(NamedTuple):
    """What a card play may change that the finished trick does not record."""

    played_by: int
    won_taker: int
    won_defence: int
    excuse_transfer: int


_new_undo = tuple.__new__
# The member descriptors of Trick's slots: they set a field past the frozen ``__setattr__``.
_set_leader, _set_cards, _set_winner = (
    vars(Trick)[f].__set__ for f in ("leader", "cards", "winner")
)


def _new_trick(leader: int, cards: tuple[Card, ...], winner: int) -> Trick:
    """``Trick(leader, cards, winner)`` at half the cost: a frozen dataclass's
    ``__init__`` sets each field through ``object.__setattr__``; its slots'
    descriptors set them directly. Once per trick of every deal and search."""
    trick: Trick = object.__new__(Trick)
    _set_leader(trick, leader)
    _set_cards(trick, cards)
    _set_winner(trick, winner)
    return trick


def play_card(deal: Deal, card: Card) -> PlayUndo:
    """Move ``card`` from the seat to act into the trick; settle a full trick.

    The card must be legal (``legal_cards``); ``game.apply`` checks it first.
    """
    won = deal.won
    # tuple.__new__: a third of the cost of PlayUndo(...), once per card of every search.
    undo = _new_undo(PlayUndo, (deal.played_by, won[0], won[1], deal.excuse_transfer))
    move_card(deal, card)
    return undo


def move_card(deal: Deal, card: Card) -> None:
    """``play_card`` without the undo record, for ``game.apply_in_place``, which never
    takes a card back."""
    seat = deal.to_act
    deal.legal_hand = -1
    deal.hands[seat] ^= 1 << card
    deal.played_by |= 1 << seat
    trick = deal.trick
    trick.append(card)
    if len(trick) < 4:
        deal.to_act = (seat + 1) % 4
    else:
        _settle_trick(deal)


def undo_play(deal: Deal, undo: PlayUndo) -> None:
    """Take back the last card played, ``undo`` being what its ``play_card`` returned."""
    deal.legal_hand = -1
    if not deal.trick:  # that card completed a trick: reopen it
        last = deal.tricks.pop()
        deal.trick = list(last.cards)
        deal.leader = last.leader
        deal.tricks_won[deal.side_of(last.winner)] -= 1
        deal.won[0], deal.won[1] = undo.won_taker, undo.won_defence
        deal.excuse_transfer = undo.excuse_transfer
        if deal.phase is DONE:
            deal.phase = PLAY
            deal.petit_au_bout = NO_SIDE
    card = deal.trick.pop()
    seat = deal.trick_seat(len(deal.trick))
    deal.hands[seat] |= 1 << card
    deal.played_by = undo.played_by
    deal.to_act = seat


def _settle_trick(deal: Deal) -> None:
    cards = deal.trick
    is_last = len(deal.tricks) == LAST_TRICK
    leader = deal.leader
    mask = 1 << cards[0] | 1 << cards[1] | 1 << cards[2] | 1 << cards[3]
    led_excuse_won = False
    if mask & EXCUSE_BIT:
        winner, led_excuse_won = _settle_excuse(deal, mask, is_last)
        if not led_excuse_won:
            mask ^= EXCUSE_BIT  # _settle_excuse gave it to its side
    else:
        winner = (leader + _winning_position(cards, mask)) % 4
    winning_side = TAKER_SIDE if winner == deal.taker else DEFENCE_SIDE
    deal.won[winning_side] |= mask
    deal.tricks_won[winning_side] += 1
    deal.tricks.append(_new_trick(leader, tuple(cards), winner))
    deal.trick = []
    deal.leader = winner
    deal.to_act = winner
    if is_last:
        _finish(deal, led_excuse_won)


def _winning_position(cards: Sequence[int], mask: int) -> int:
    """``winning_position`` on the bitset of a full trick's cards, the Excuse left out."""
    trumps = mask & TRUMPS
    if trumps:
        return cards.index(trumps.bit_length() - 1)
    led = cards[1] if cards[0] == EXCUSE else cards[0]
    return cards.index((mask & SUIT_MASK_OF[led]).bit_length() - 1)


def _settle_excuse(deal: Deal, mask: int, is_last: bool) -> tuple[int, bool]:
    """The winner of a full trick holding the Excuse, and whether the led Excuse won it.

    R13: the Excuse stays with its side, which owes half a point when the other
    side won the trick; R14: led to trick 18 by a side that took the other 17 it
    wins that trick, and any other Excuse played to trick 18 changes side.
    """
    cards, leader = deal.trick, deal.leader
    position = cards.index(EXCUSE)
    excuse_side = TAKER_SIDE if (leader + position) % 4 == deal.taker else DEFENCE_SIDE
    swept = is_last and deal.tricks_won[excuse_side] == LAST_TRICK
    if swept and position == 0:
        return leader, True
    winner = (leader + _winning_position(cards, mask ^ EXCUSE_BIT)) % 4
    deal.won[1 - excuse_side if is_last else excuse_side] |= EXCUSE_BIT
    winning_side = TAKER_SIDE if winner == deal.taker else DEFENCE_SIDE
    if not is_last and excuse_side != winning_side:
        deal.excuse_transfer += 1 if winning_side == TAKER_SIDE else -1
    return winner, False


def _finish(deal: Deal, ended_with_led_excuse: bool) -> None:
    # R17: T1 in the last trick; after a chelem closed by a led Excuse, trick 17.
    deciding = deal.tricks[LAST_TRICK - 1 if ended_with_led_excuse else LAST_TRICK]
    if PETIT in deciding.cards:
        deal.petit_au_bout = deal.side_of(deciding.winner)
    deal.phase = DONE
    deal.to_act = NO_SEAT


__all__ = [
    "PlayUndo",
    "beating_cards",
    "highest_trump",
    "led_suit",
    "led_suit_mask",
    "legal_cards",
    "move_card",
    "play_card",
    "refuse_play",
    "trick_winner_position",
    "undo_play",
    "winning_position",
]
