"""R6 (chien and discard for prise / garde) and R7 (garde sans, garde contre)."""

from __future__ import annotations

import pytest

import engine
from engine import (
    CardNotInHand,
    Discard,
    DiscardedNotInHand,
    IllegalDiscard,
    NotYourTurn,
    Phase,
    score,
    step,
    to_record,
    view,
)
from engine.events import ChienRevealed, DiscardKept, DiscardMade, TakerKnown

from .helpers import bid, card_set, chelem, code_set, discard, make_deal, play_lowest, refuse
from .oracle import in_tricks

# Dealer 3, seat 0 bids first. With the chien seat 0 holds 17 ordinary cards.
PLENTY = ["T1..T6 1S..10S 1H 2H", "T7..T12 JS NS QS KS 3H..10H", "T13..T18 JH..KH 1D..8D", None]
PLENTY_CHIEN = "9C..KC"

# Seat 0 with the chien: T2..T17, KS KH KD, EX and only 4 ordinary cards (1S..4S).
SHORT = ["T2..T15 KS KH 1S 2S", "T1 T18 5S..QS 1H..7H", "T19 T20 T21 8H..QH 1D..9D", None]
SHORT_CHIEN = "T16 T17 KD EX 3S 4S"


def taken(hands: list[str | None], chien: str, contract: str = "garde") -> engine.Deal:
    return bid(make_deal(3, hands, chien), contract, "pass", "pass", "pass")


def test_R6_chien_is_shown_to_all_and_joins_the_takers_hand() -> None:
    before = make_deal(3, PLENTY, PLENTY_CHIEN)
    before = bid(before, "garde", "pass", "pass")
    deal, events = step(before, engine.Bid(3, engine.Contract.PASS))
    assert deal.phase is Phase.DISCARD and deal.to_act == 0
    assert deal.hands[0].bit_count() == 24
    chien = card_set(PLENTY_CHIEN)
    revealed = [e for e in events if isinstance(e, ChienRevealed)]
    assert len(revealed) == 1 and revealed[0].audience is engine.PUBLIC
    assert set(revealed[0].cards) == chien
    assert any(isinstance(e, TakerKnown) for e in events)
    for seat in (None, 0, 1, 2, 3):
        assert view(deal, seat).chien is not None
        assert set(view(deal, seat).chien or ()) == chien


def test_R6_no_king_no_bout_ordinary_first() -> None:
    deal = taken(PLENTY, PLENTY_CHIEN)
    rule = engine.legal_actions(deal).discard
    assert rule is not None and rule.count == 6 and not rule.required
    assert code_set(rule.allowed) == {*"1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H".split()} | {
        *"9C 10C JC NC QC".split()
    }
    cases = [
        ("KC 1S 2S 3S 4S 5S", "KC", "king"),
        ("T1 1S 2S 3S 4S 5S", "T1", "bout"),
        ("T2 1S 2S 3S 4S 5S", "T2", "ordinary"),
        ("1S 2S 3S 4S 5S", "5 cards", "6"),
        ("1S 2S 3S 4S 5S 6S 7S", "7 cards", "6"),
    ]
    for text, named, why in cases:
        error = refuse(deal, Discard(0, card_set(text)), IllegalDiscard, "illegal_discard", "R6")
        assert named in str(error) and why in str(error)
    outside = card_set("JS 1S 2S 3S 4S 5S")
    error = refuse(deal, Discard(0, outside), DiscardedNotInHand, "card_not_in_hand", "R6")
    assert isinstance(error, CardNotInHand) and isinstance(error, IllegalDiscard)
    refuse(deal, Discard(1, card_set("1S..6S")), NotYourTurn, "not_your_turn", "R1")
    # Queens, Knights and Jacks are ordinary: they may go
    after = discard(deal, "QC NC JC 10C 9C 1S")
    assert after.phase is Phase.CHELEM and after.hands[0].bit_count() == 18


def test_R6_trumps_only_for_a_shortfall_all_ordinary_first() -> None:
    deal = taken(SHORT, SHORT_CHIEN)
    rule = engine.legal_actions(deal).discard
    assert rule is not None
    assert code_set(rule.required) == {"1S", "2S", "3S", "4S"}
    assert code_set(rule.allowed) == {"1S", "2S", "3S", "4S"} | {f"T{n}" for n in range(2, 18)}
    error = refuse(
        deal, Discard(0, card_set("1S 2S 3S T2 T3 T4")), IllegalDiscard, "illegal_discard", "R6"
    )
    assert "4S" in str(error)
    for bad in ("KD 1S 2S 3S 4S T2", "EX 1S 2S 3S 4S T2"):
        refuse(deal, Discard(0, card_set(bad)), IllegalDiscard, "illegal_discard", "R6")
    after = discard(deal, "1S 2S 3S 4S T2 T3")
    assert after.discard == engine.mask_of(card_set("1S 2S 3S 4S T2 T3"))


def test_R6_discarded_trumps_are_public_the_rest_is_the_takers() -> None:
    deal = taken(SHORT, SHORT_CHIEN)
    after, events = step(deal, Discard(0, card_set("1S 2S 3S 4S T2 T3")))
    made = [e for e in events if isinstance(e, DiscardMade)]
    kept = [e for e in events if isinstance(e, DiscardKept)]
    assert len(made) == 1 and made[0].audience is engine.PUBLIC
    assert code_set(made[0].trumps) == {"T2", "T3"}
    assert len(kept) == 1 and kept[0].audience == (0,)
    assert code_set(kept[0].cards) == {"1S", "2S", "3S", "4S", "T2", "T3"}
    mine = view(after, 0)
    assert code_set(mine.discard or ()) == {"1S", "2S", "3S", "4S", "T2", "T3"}
    for seat in (None, 1, 2, 3):
        theirs = view(after, seat)
        assert theirs.discard is None
        assert code_set(theirs.discard_trumps) == {"T2", "T3"}


def test_R6_a_discard_without_trumps_shows_nothing() -> None:
    after, events = step(taken(PLENTY, PLENTY_CHIEN), Discard(0, card_set("1S..6S")))
    made = [e for e in events if isinstance(e, DiscardMade)]
    assert made[0].trumps == ()
    assert view(after, 2).discard_trumps == () and view(after, 2).discard is None


@pytest.mark.parametrize("contract", ["prise", "garde"])
def test_R6_the_discard_counts_for_the_taker(contract: str) -> None:
    deal = discard(taken(PLENTY, PLENTY_CHIEN, contract), "QC NC JC 10C 9C 1S")
    record = to_record(play_lowest(chelem(deal), 18))
    points, bouts = in_tricks(record)
    sheet = score(engine.load_record(record))
    # the discard: QC 3.5 + NC 2.5 + JC 1.5 + 10C, 9C, 1S 0.5 each = 9
    assert sheet.points == points + 9
    assert sheet.bouts == bouts


# R7 ---------------------------------------------------------------------------------------

# The chien holds the Monde and the Excuse; seat 0 holds the Petit.
BOUT_CHIEN = "T21 EX 9C 10C JC NC"
BOUT_HANDS = ["T1..T6 1S..10S 1H 2H", "T7..T12 JS NS QS KS 3H..10H", "T13..T18 JH..KH 1D..8D", None]


@pytest.mark.parametrize("contract", ["garde_sans", "garde_contre"])
def test_R7_chien_stays_unseen_and_there_is_no_discard(contract: str) -> None:
    before = bid(make_deal(3, BOUT_HANDS, BOUT_CHIEN), contract, "pass", "pass")
    deal, events = step(before, engine.Bid(3, engine.Contract.PASS))
    assert deal.phase is Phase.CHELEM and deal.to_act == 0
    assert deal.hands[0].bit_count() == 18
    assert not any(isinstance(e, ChienRevealed) for e in events)
    for seat in (None, 0, 1, 2, 3):
        assert view(deal, seat).chien is None
    error = refuse(deal, Discard(0, card_set("1S..6S")), IllegalDiscard, "illegal_discard", "R7")
    assert contract in str(error)
    assert "discard" not in to_record(play_lowest(chelem(deal), 18))


def _played(contract: str) -> engine.Deal:
    deal = bid(make_deal(3, BOUT_HANDS, BOUT_CHIEN), contract, "pass", "pass", "pass")
    return play_lowest(chelem(deal), 18)


def test_R7_garde_sans_chien_and_its_bouts_count_for_the_taker() -> None:
    deal = _played("garde_sans")
    points, bouts = in_tricks(to_record(deal))
    sheet = score(deal)
    # the chien: T21 4.5 + EX 4.5 + 9C 0.5 + 10C 0.5 + JC 1.5 + NC 2.5 = 14, two bouts
    assert sheet.points == points + 14
    assert sheet.bouts == bouts + 2


def test_R7_garde_contre_chien_and_its_bouts_count_for_the_defence() -> None:
    deal = _played("garde_contre")
    points, bouts = in_tricks(to_record(deal))
    sheet = score(deal)
    assert sheet.points == points
    assert sheet.bouts == bouts < 2
    defence = engine.cards.half_points(deal.won[1] | deal.chien) / 2 - deal.excuse_transfer / 2
    assert sheet.points + defence == 91
