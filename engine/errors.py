"""Typed errors. Every refusal names its stable ``code`` and the ruling it enforces.

One hierarchy: everything the engine raises on purpose is a ``TarotError``. The
``code`` belongs to the class (the class that defines it is named after it),
so a handler may switch on either; the ruling (docs/RULES.md) is the class's
too, and an instance names another only where one refusal serves two rulings
(a discard in a garde sans is R7's, a poignee with discarded trumps R9's).
An error raised by ``apply`` means the action was refused and nothing changed.
"""

from __future__ import annotations


class TarotError(Exception):
    """Base of every error the engine raises on purpose."""

    code = "tarot_error"
    rule = ""

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if rule is not None:
            self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


class IllegalAction(TarotError):
    """The action is not one the rules allow now."""

    code = "illegal_action"


class WrongPhase(IllegalAction):
    code = "wrong_phase"


class NotYourTurn(IllegalAction):
    code = "not_your_turn"
    rule = "R1"


class IllegalBid(IllegalAction):
    code = "illegal_bid"
    rule = "R5"


class IllegalDiscard(IllegalAction):
    code = "illegal_discard"
    rule = "R6"


class IllegalPoignee(IllegalAction):
    code = "illegal_poignee"
    rule = "R8"


class IllegalChelem(IllegalAction):
    code = "illegal_chelem"
    rule = "R10"


class IllegalPlay(IllegalAction):
    code = "illegal_play"
    rule = "R11"


class CardNotInHand(IllegalAction):
    """A card the seat does not hold: played (R11) or discarded (R6)."""

    code = "card_not_in_hand"


class PlayedNotInHand(CardNotInHand, IllegalPlay):
    pass


class DiscardedNotInHand(CardNotInHand, IllegalDiscard):
    pass


class MustFollowSuit(IllegalPlay):
    code = "must_follow_suit"


class MustTrump(IllegalPlay):
    code = "must_trump"


class MustOvertrump(IllegalPlay):
    code = "must_overtrump"


class DealOver(IllegalAction):
    code = "deal_over"


class InvalidDeal(TarotError):
    """Hands and chien that are not a partition of the 78 cards (R2)."""

    code = "invalid_deal"
    rule = "R2"


class RecordError(TarotError):
    """A game record that is malformed or breaks a rule; ``str`` is one line."""

    code = "record_error"


class UnknownCard(TarotError, ValueError):
    """A string that is not one of the 78 card codes (docs/RECORD.md)."""

    code = "unknown_card"


class UnknownContract(TarotError, ValueError):
    """A string that is not one of the five bid codes (docs/RECORD.md)."""

    code = "unknown_contract"


class DealNotOver(TarotError):
    """Only a finished (or cancelled) deal has a score sheet."""

    code = "deal_not_over"
