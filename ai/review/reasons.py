"""One-line reasons for a reviewed decision, where the engine's record of the deal gives one.

The facts come from the finished deal as the engine played it (who won each
trick, which side that is): no rule is re-derived here. A reason is given
only for a choice the search did not rate best:

- the Petit played into a trick the other side won (captured);
- a King given to a trick the other side won while a lower card of the
  suit could follow;
- the Excuse kept to the last trick and lost there (R14), told at the trick
  before, where playing it was the better choice;
- a bid above what the hand is worth by the AI's estimate, or below it.

A reason is a code with its arguments (card codes, seats, contract and suit
names, scores), so that a client can say it in its own language, and the
English sentence for the command line and for clients that know no code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine
from ai.cardset import KINGS, SUIT_MASK_OF, SUIT_OF
from engine import EXCUSE, PETIT, SUIT_NAMES, Deal

from .decisions import Decision

ReasonArg = str | int | float

ENGLISH = {
    "petit_captured": "the Petit was captured by seat {winner}; {best} would have kept it",
    "excuse_lost_last": "the Excuse was kept to the last trick and lost there (R14); play it now",
    "king_given_away": "gave the King of {suit} away to seat {winner}; {best} would have kept it",
    "bid_too_high": (
        "the bid was above what the hand is worth by the AI's estimate: "
        "{chosen} expects {chosen_score:+.0f}, {best} {best_score:+.0f}"
    ),
    "hand_worth_bid": (
        "the hand is worth a {best} by the AI's estimate ({best_score:+.0f} against 0)"
    ),
    "bid_worth_other": (
        "by the AI's estimate {best} is worth {best_score:+.0f}, {chosen} {chosen_score:+.0f}"
    ),
}


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a choice was worse: a code of ``ENGLISH`` and the values its sentence names."""

    code: str
    args: dict[str, ReasonArg] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return ENGLISH[self.code].format(**self.args)


def reason_for(d: Decision, final: Deal, entry: dict[str, Any]) -> Reason | None:
    if entry["best"] == d.chosen:
        return None
    if d.kind == "card":
        return _card_reason(d, final, entry["best"])
    if d.kind == "bid":
        return _bid_reason(d.chosen, entry["best"], entry["chosen_score"], entry["best_score"])
    return None


def _card_reason(d: Decision, final: Deal, best: str) -> Reason | None:
    action = d.action
    assert isinstance(action, engine.Play)
    card = action.card
    trick = len(d.before.tricks)
    winner = final.tricks[trick].winner
    lost = final.side_of(winner) != final.side_of(d.seat)
    if card == PETIT and lost:
        return Reason("petit_captured", {"winner": winner, "best": best})
    if trick == 16 and best == "EX" and _excuse_lost_last(final, d.seat):
        return Reason("excuse_lost_last")
    if 1 << card & KINGS and lost and _could_follow_lower(d, card):
        suit = SUIT_NAMES[SUIT_OF[card]]
        return Reason("king_given_away", {"suit": suit, "winner": winner, "best": best})
    return None


def _excuse_lost_last(final: Deal, seat: int) -> bool:
    """Whether ``seat`` played the Excuse in the last trick and the other side won it."""
    last = final.tricks[-1]
    played = last.cards[(seat - last.leader) % 4]
    return played == EXCUSE and final.side_of(last.winner) != final.side_of(seat)


def _could_follow_lower(d: Decision, king: int) -> bool:
    """Whether a lower card of the King's suit was among the legal cards."""
    suit = SUIT_MASK_OF[king]
    legal = engine.legal_actions(d.before).cards
    return any(1 << c & suit and c < king for c in legal)


def _bid_reason(chosen: str, best: str, chosen_score: float, best_score: float) -> Reason:
    scores: dict[str, ReasonArg] = {"chosen": chosen, "best": best}
    scores |= {"chosen_score": chosen_score, "best_score": best_score}
    if chosen != "pass" and chosen_score < 0:
        return Reason("bid_too_high", scores)
    if chosen == "pass":
        return Reason("hand_worth_bid", {"best": best, "best_score": best_score})
    return Reason("bid_worth_other", scores)
