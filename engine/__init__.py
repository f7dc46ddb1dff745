"""The rules of French Tarot as pure functions over data (no I/O, no clock, no global random).

A whole deal of random legal actions, and its score sheet (docs/RECORD.md):

>>> import random
>>> from engine import apply, new_deal, random_action, score
>>> rng = random.Random(42)
>>> deal = new_deal(dealer=0, rng=rng)
>>> while not deal.is_over:
...     deal = apply(deal, random_action(deal, rng))
>>> sheet = score(deal).to_json()
>>> sheet["status"], sum(sheet["scores"])
('played', 0)

The same seed deals the same cards (R2): ``new_deal(0, 42)`` shuffles with
``random.Random(42)``.

Search (``ai``) plays on one ``Deal`` in place and takes cards back instead
of copying it; the rules stay here. Cards are ints and sets of cards int
bitsets (``cards``): ``legal_cards`` (R11) and ``beating_cards`` (R12) answer
with a bitset, ``play_card`` / ``undo_play`` make and unmake a card,
``taker_result`` scores the end as one number:

>>> from engine import Phase, apply_in_place, card_code, cards_of, legal_cards, lowest_card
>>> from engine import TRUMPS, beating_cards, highest_card, play_card, taker_result, undo_play
>>> rng = random.Random(1)
>>> deal = new_deal(dealer=0, rng=rng)
>>> while deal.phase is not Phase.PLAY:
...     apply_in_place(deal, random_action(deal, rng))
>>> before = deal.copy()
>>> undo = play_card(deal, lowest_card(legal_cards(deal.hands[deal.to_act], deal.trick)))
>>> card_code(deal.trick[0]), [card_code(c) for c in cards_of(beating_cards(deal.trick, TRUMPS))]
('T6', ['T7', 'T8', 'T9', 'T10', 'T11', 'T12', 'T13', 'T14', 'T15', 'T16', 'T17', 'T18', ...])
>>> undo_play(deal, undo)
>>> deal == before
True
>>> while not deal.is_over:
...     _ = play_card(deal, highest_card(legal_cards(deal.hands[deal.to_act], deal.trick)))
>>> taker_result(deal) == 2 * score(deal).per_defender
True

See ``game`` for the phase machine, ``views`` for what a seat may see and
``tricks`` for the search calls.
"""

from .actions import (
    PLAYS,
    Action,
    Bid,
    Contract,
    DeclareChelem,
    Discard,
    Play,
    ShowPoignee,
)
from .cards import (
    ALL_CARDS,
    BOUTS,
    CODES,
    EXCUSE,
    EXCUSE_BIT,
    HALF_POINTS,
    HAND_SIZE,
    HIGHER_OF,
    KINGS,
    MONDE,
    ORDINARY,
    PETIT,
    RANK_OF,
    SUIT_MASK_OF,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_OF,
    TRUMP_SUIT,
    TRUMPS,
    Card,
    card_code,
    cards_of,
    highest_card,
    lowest_card,
    mask_of,
    parse_card,
    parse_cards,
)
from .chien import DiscardRule, discard_rule
from .deal import deal_from_hands, is_petit_sec, new_deal
from .declarations import PoigneeLevel, PoigneeOffer, poignee_offers
from .errors import (
    CardNotInHand,
    DealNotOver,
    DealOver,
    DiscardedNotInHand,
    IllegalAction,
    IllegalBid,
    IllegalChelem,
    IllegalDiscard,
    IllegalPlay,
    IllegalPoignee,
    InvalidDeal,
    MustFollowSuit,
    MustOvertrump,
    MustTrump,
    NotYourTurn,
    PlayedNotInHand,
    RecordError,
    TarotError,
    UnknownCard,
    UnknownContract,
    WrongPhase,
)
from .events import (
    PUBLIC,
    BidMade,
    CardPlayed,
    ChelemDeclared,
    ChienRevealed,
    DealCancelled,
    DealEvent,
    DealScored,
    DealStarted,
    DiscardKept,
    DiscardMade,
    HandDealt,
    PoigneeShown,
    TakerKnown,
    TrickTaken,
    deal_events,
    step,
)
from .game import Legal, apply, apply_in_place, legal_actions, random_action
from .records import (
    FORMAT,
    RECORD_FIELDS,
    action_entry,
    entry_action,
    load_record,
    parse_record,
    to_record,
)
from .scoring import Bonus, DealScore, Points, score, taker_result
from .series import Series
from .state import NO_SEAT, NO_SIDE, Cancellation, Deal, Phase, Trick
from .tricks import (
    PlayUndo,
    beating_cards,
    led_suit,
    legal_cards,
    play_card,
    undo_play,
    winning_position,
)
from .views import View, view

__all__ = [
    "ALL_CARDS",
    "BOUTS",
    "CODES",
    "EXCUSE",
    "EXCUSE_BIT",
    "FORMAT",
    "HALF_POINTS",
    "HAND_SIZE",
    "HIGHER_OF",
    "KINGS",
    "MONDE",
    "NO_SEAT",
    "NO_SIDE",
    "ORDINARY",
    "PETIT",
    "PLAYS",
    "PUBLIC",
    "RANK_OF",
    "RECORD_FIELDS",
    "SUIT_MASKS",
    "SUIT_MASK_OF",
    "SUIT_NAMES",
    "SUIT_OF",
    "TRUMPS",
    "TRUMP_SUIT",
    "Action",
    "Bid",
    "BidMade",
    "Bonus",
    "Cancellation",
    "Card",
    "CardNotInHand",
    "CardPlayed",
    "ChelemDeclared",
    "ChienRevealed",
    "Contract",
    "Deal",
    "DealCancelled",
    "DealEvent",
    "DealNotOver",
    "DealOver",
    "DealScore",
    "DealScored",
    "DealStarted",
    "DeclareChelem",
    "Discard",
    "DiscardKept",
    "DiscardMade",
    "DiscardRule",
    "DiscardedNotInHand",
    "HandDealt",
    "IllegalAction",
    "IllegalBid",
    "IllegalChelem",
    "IllegalDiscard",
    "IllegalPlay",
    "IllegalPoignee",
    "InvalidDeal",
    "Legal",
    "MustFollowSuit",
    "MustOvertrump",
    "MustTrump",
    "NotYourTurn",
    "Phase",
    "Play",
    "PlayUndo",
    "PlayedNotInHand",
    "PoigneeLevel",
    "PoigneeOffer",
    "PoigneeShown",
    "Points",
    "RecordError",
    "Series",
    "ShowPoignee",
    "TakerKnown",
    "TarotError",
    "Trick",
    "TrickTaken",
    "UnknownCard",
    "UnknownContract",
    "View",
    "WrongPhase",
    "action_entry",
    "apply",
    "apply_in_place",
    "beating_cards",
    "card_code",
    "cards_of",
    "deal_events",
    "deal_from_hands",
    "discard_rule",
    "entry_action",
    "highest_card",
    "is_petit_sec",
    "led_suit",
    "legal_actions",
    "legal_cards",
    "load_record",
    "lowest_card",
    "mask_of",
    "new_deal",
    "parse_card",
    "parse_cards",
    "parse_record",
    "play_card",
    "poignee_offers",
    "random_action",
    "score",
    "step",
    "taker_result",
    "to_record",
    "undo_play",
    "view",
    "winning_position",
]
