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

See ``game`` for the phase machine and ``views`` for what a seat may see.
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
    CODES,
    EXCUSE,
    MONDE,
    PETIT,
    Card,
    card_code,
    cards_of,
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
from .events import PUBLIC, DealEvent, deal_events, step
from .game import Legal, apply, apply_in_place, legal_actions, random_action
from .records import FORMAT, action_entry, entry_action, load_record, parse_record, to_record
from .scoring import Bonus, DealScore, score
from .series import Series
from .state import NO_SEAT, NO_SIDE, Cancellation, Deal, Phase, Trick
from .views import View, view

__all__ = [
    "CODES",
    "EXCUSE",
    "FORMAT",
    "MONDE",
    "NO_SEAT",
    "NO_SIDE",
    "PETIT",
    "PLAYS",
    "PUBLIC",
    "Action",
    "Bid",
    "Bonus",
    "Cancellation",
    "Card",
    "CardNotInHand",
    "Contract",
    "Deal",
    "DealEvent",
    "DealNotOver",
    "DealOver",
    "DealScore",
    "DeclareChelem",
    "Discard",
    "DiscardRule",
    "DiscardedNotInHand",
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
    "PlayedNotInHand",
    "PoigneeLevel",
    "PoigneeOffer",
    "RecordError",
    "Series",
    "ShowPoignee",
    "TarotError",
    "Trick",
    "UnknownCard",
    "UnknownContract",
    "View",
    "WrongPhase",
    "action_entry",
    "apply",
    "apply_in_place",
    "card_code",
    "cards_of",
    "deal_events",
    "deal_from_hands",
    "discard_rule",
    "entry_action",
    "is_petit_sec",
    "legal_actions",
    "load_record",
    "mask_of",
    "new_deal",
    "parse_card",
    "parse_cards",
    "parse_record",
    "poignee_offers",
    "random_action",
    "score",
    "step",
    "to_record",
    "view",
]
