"""One error hierarchy for the engine: every error is a TarotError, its code its class's.

A handler switches on the class or on ``code``; both say the same thing, so the
class that defines a code is named after it (``MustFollowSuit`` defines
``must_follow_suit``) and no instance carries another code.
"""

from __future__ import annotations

import inspect
import re

import pytest

import engine
from engine import (
    CardNotInHand,
    Contract,
    IllegalDiscard,
    IllegalPlay,
    TarotError,
    new_deal,
    parse_card,
    score,
)

ERRORS = [
    value
    for value in vars(engine).values()
    if inspect.isclass(value) and issubclass(value, TarotError)
]


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: e.__name__)
def test_the_class_that_defines_a_code_is_named_after_it(error: type[TarotError]) -> None:
    if "code" in vars(error):
        assert error.code == _snake(error.__name__)
    else:  # it inherits the code of a class named after it
        assert any(error.code == _snake(base.__name__) for base in error.__mro__)


def test_no_instance_takes_another_code() -> None:
    with pytest.raises(TypeError):
        TarotError("x", code="y")  # type: ignore[call-arg]


def test_a_card_not_in_hand_is_one_code_for_a_play_and_a_discard() -> None:
    """The scenarios are test_R11_a_card_not_in_hand_is_refused and the R6 discard test."""
    assert issubclass(engine.PlayedNotInHand, IllegalPlay)
    assert issubclass(engine.DiscardedNotInHand, IllegalDiscard)
    for error, rule in ((engine.PlayedNotInHand, "R11"), (engine.DiscardedNotInHand, "R6")):
        assert issubclass(error, CardNotInHand)
        assert (error.code, error.rule) == ("card_not_in_hand", rule)


def test_an_unknown_card_is_a_tarot_error() -> None:
    with pytest.raises(TarotError) as refused:
        parse_card("ZZ")
    assert refused.value.code == "unknown_card"
    assert isinstance(refused.value, ValueError)  # as before, for code that caught that


def test_an_unknown_bid_is_a_tarot_error() -> None:
    with pytest.raises(TarotError) as refused:
        Contract.from_code("surcontre")
    assert refused.value.code == "unknown_contract"


def test_a_deal_not_over_has_no_score_sheet() -> None:
    with pytest.raises(TarotError) as refused:
        score(new_deal(0, 1))
    assert refused.value.code == "deal_not_over" and str(refused.value) == "the deal is not over"
