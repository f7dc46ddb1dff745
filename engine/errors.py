"""Typed errors. Every refusal names its stable ``code`` and the ruling it enforces.

An error raised by ``apply`` means the action was refused and nothing changed.
"""

from __future__ import annotations


class TarotError(Exception):
    """Base of every error the engine raises on purpose."""

    code = "tarot_error"
    rule = ""

    def __init__(self, message: str, *, code: str | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
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


class CardNotInHand(IllegalPlay):
    code = "card_not_in_hand"


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

    code = "bad_record"
