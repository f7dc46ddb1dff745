"""R8 (poignee), R9 (the taker's triple with discarded trumps), R10 (chelem)."""

from __future__ import annotations

import random

import pytest

import engine
from engine import (
    Deal,
    DeclareChelem,
    IllegalChelem,
    IllegalPoignee,
    NotYourTurn,
    Phase,
    PoigneeLevel,
    ShowPoignee,
    WrongPhase,
    legal_actions,
    score,
    step,
    view,
)
from engine.events import PoigneeShown

from .helpers import bid, card_set, chelem, code_set, codes, discard, make_deal, play, refuse, show

# Dealer 3: seat 0 bids first and leads; it takes a garde sans and keeps its 18 cards.
REST = "9C..KC"


def ready(hands: list[str | None], chien: str = REST, contract: str = "garde_sans") -> Deal:
    deal = bid(make_deal(3, hands, chien), contract, "pass", "pass", "pass")
    return chelem(deal) if deal.phase is Phase.CHELEM else deal


def offers(deal: Deal) -> dict[PoigneeLevel, set[str]]:
    legal = legal_actions(deal)
    shows = [a for a in legal.actions if isinstance(a, ShowPoignee)]
    assert [a.cards for a in shows] == [o.cards for o in legal.poignees]
    return {o.level: code_set(o.cards) for o in legal.poignees}


def trumps(low: int, high: int) -> set[str]:
    return {f"T{n}" for n in range(low, high + 1)}


# R8 ---------------------------------------------------------------------------------------

FIFTEEN = ["T1..T15 1S 2S 3S", "T16..T21 EX 4S..KS", "1H..KH 1D..4D", None]
TWELVE_EX = ["T1..T12 EX 1S..5S", "T13..T21 6S..KS", "1H..KH 1D..4D", None]
FOURTEEN_EX = ["T1..T14 EX 1S 2S 3S", "T15..T21 4S..KS", "1H..KH 1D..4D", None]
NINE_EX = ["T1..T9 EX 1S..8S", "T10..T21 9S..KS", "1H..KH 1D..4D", None]


def test_R8_offers_every_level_lowest_trumps_first() -> None:
    assert offers(ready(FIFTEEN)) == {
        PoigneeLevel.SIMPLE: trumps(1, 10),
        PoigneeLevel.DOUBLE: trumps(1, 13),
        PoigneeLevel.TRIPLE: trumps(1, 15),
    }


def test_R8_offers_the_excuse_only_where_it_is_needed() -> None:
    assert offers(ready(TWELVE_EX)) == {
        PoigneeLevel.SIMPLE: trumps(1, 10),
        PoigneeLevel.DOUBLE: trumps(1, 12) | {"EX"},
    }
    assert offers(ready(FOURTEEN_EX)) == {
        PoigneeLevel.SIMPLE: trumps(1, 10),
        PoigneeLevel.DOUBLE: trumps(1, 13),
        PoigneeLevel.TRIPLE: trumps(1, 14) | {"EX"},
    }
    deal = ready(NINE_EX)
    assert offers(deal) == {PoigneeLevel.SIMPLE: trumps(1, 9) | {"EX"}}
    # seat 1 (12 trumps, no Excuse) is offered a simple at its own first card
    deal = play(deal, "1S")
    assert offers(deal) == {PoigneeLevel.SIMPLE: trumps(10, 19)}
    deal = play(deal, "9S")
    assert offers(deal) == {}  # seat 2 holds no trump


def test_R8_no_offer_below_ten() -> None:
    hands = ["T1..T8 EX 1S..9S", "T9..T21 10S..KS", "1H..KH 1D..4D", None]
    deal = ready(hands)
    assert offers(deal) == {}
    refuse(deal, ShowPoignee(0, card_set("T1..T8 EX 1S")), IllegalPoignee, "illegal_poignee", "R8")


def test_R8_any_other_valid_subset_is_accepted() -> None:
    deal = ready(TWELVE_EX)
    after, events = step(deal, ShowPoignee(0, card_set("T3..T12")))
    assert after.poignees == {0: engine.mask_of(card_set("T3..T12"))}
    shown = [e for e in events if isinstance(e, PoigneeShown)]
    assert shown[0].level is PoigneeLevel.SIMPLE and shown[0].audience is engine.PUBLIC
    assert view(after, 2).poignees == ((0, tuple(sorted(card_set("T3..T12")))),)
    # the double with the Excuse standing in for a thirteenth trump: every trump is shown
    assert show(deal, "T1..T12 EX").poignees[0] == engine.mask_of(card_set("T1..T12 EX"))
    # the whole hand of fifteen may be shown as a triple or any ten as a simple
    assert show(ready(FIFTEEN), "T6..T15").poignees


@pytest.mark.parametrize(
    ("shown", "why"),
    [
        ("T1..T9 EX", "EX"),  # the Excuse while holding trumps not shown
        ("T1..T11", "11 cards"),  # not 10, 13 or 15
        ("T1..T9 1S", "1S"),  # not a trump
        ("T1..T9 T13", "T13"),  # not in hand
        ("T1..T12 1S", "1S"),
        ("T1..T8", "8 cards"),
    ],
)
def test_R8_invalid_subsets_are_refused(shown: str, why: str) -> None:
    deal = ready(TWELVE_EX)
    error = refuse(deal, ShowPoignee(0, card_set(shown)), IllegalPoignee, "illegal_poignee", "R8")
    assert why in str(error)


def test_R8_excuse_not_in_hand_is_refused() -> None:
    deal = ready(FIFTEEN)
    error = refuse(
        deal, ShowPoignee(0, card_set("T1..T9 EX")), IllegalPoignee, "illegal_poignee", "R8"
    )
    assert "EX" in str(error)


def test_R8_one_poignee_per_seat() -> None:
    deal = show(ready(FIFTEEN), "T1..T10")
    assert offers(deal) == {}
    error = refuse(
        deal, ShowPoignee(0, card_set("T1..T13")), IllegalPoignee, "illegal_poignee", "R8"
    )
    assert "already" in str(error)
    # showing does not play: the seat still owes its first card
    assert deal.to_act == 0 and deal.played_by == 0
    deal = play(deal, "1S")
    assert deal.to_act == 1


def test_R8_only_before_the_seats_own_first_card() -> None:
    deal = play(ready(FIFTEEN), "1S")
    # seat 0 played: too late for it, even though the trick is still open
    error = refuse(
        deal, ShowPoignee(0, card_set("T1..T10")), IllegalPoignee, "illegal_poignee", "R8"
    )
    assert "first card" in str(error)
    # seat 1 follows: too late for it as well
    deal = play(deal, "4S")
    refuse(
        deal,
        ShowPoignee(1, card_set("T16..T21 EX 5S 6S 7S")),
        IllegalPoignee,
        "illegal_poignee",
        "R8",
    )
    deal = play(deal, "1H 5D")
    assert deal.to_act == 1  # seat 1 won with 4S and leads again
    assert not [a for a in legal_actions(deal).actions if isinstance(a, ShowPoignee)]
    assert ready(FIFTEEN).phase is Phase.PLAY
    # before the play starts, no poignee
    before = bid(make_deal(3, FIFTEEN, REST), "garde_sans", "pass", "pass", "pass")
    refuse(before, ShowPoignee(0, card_set("T1..T10")), WrongPhase, "wrong_phase", "")


def test_R8_a_defender_may_show_and_it_is_scored_for_the_contract_winner() -> None:
    deal = ready(NINE_EX)
    deal = play(deal, "1S")
    deal = show(deal, "T10..T19")
    assert set(deal.poignees) == {1}
    rng = random.Random(1)
    while not deal.is_over:
        deal = engine.apply(deal, engine.random_action(deal, rng))
    sheet = score(deal)
    bonus = [b for b in sheet.bonuses if b.kind == "poignee"]
    assert len(bonus) == 1 and bonus[0].points == 20 and bonus[0].seat == 1
    assert bonus[0].side == ("taker" if sheet.made else "defence")


def test_R8_poignee_not_your_turn() -> None:
    deal = ready(FIFTEEN)
    refuse(
        deal, ShowPoignee(1, card_set("T16..T21 EX 4S 5S 6S")), NotYourTurn, "not_your_turn", "R1"
    )


# R9 ---------------------------------------------------------------------------------------

# Seat 0 holds the four Kings; with the chien only 3 ordinary cards, so 3 trumps are discarded.
FOUR_KINGS = ["KS KH KD KC T8..T21", "T1 T2 1S..QS 4H 5H 6H", "T3 T4 EX 7H..QH 1D..8D", None]
FOUR_KINGS_CHIEN = "1H 2H 3H T5 T6 T7"


def test_R9_taker_with_four_kings_shows_discarded_trumps_in_a_triple() -> None:
    deal = make_deal(3, FOUR_KINGS, FOUR_KINGS_CHIEN)
    deal = discard(bid(deal, "garde", "pass", "pass", "pass"), "1H 2H 3H T5 T6 T7")
    assert (deal.hands[0] & engine.cards.TRUMPS).bit_count() == 14
    deal = chelem(deal)
    assert offers(deal) == {
        PoigneeLevel.SIMPLE: trumps(8, 17),
        PoigneeLevel.DOUBLE: trumps(8, 20),
        PoigneeLevel.TRIPLE: trumps(5, 19),
    }
    shown = show(deal, "T5 T6 T7 T9..T20")
    assert code_set(engine.cards_of(shown.poignees[0])) == {"T5", "T6", "T7"} | trumps(9, 20)
    # only the triple may use them
    error = refuse(
        deal, ShowPoignee(0, card_set("T5 T8..T16")), IllegalPoignee, "illegal_poignee", "R9"
    )
    assert "T5" in str(error)


def test_R9_without_the_four_kings_discarded_trumps_stay_hidden() -> None:
    hands = ["KS KH KD QC T8..T21", "T1 T2 1S..QS 4H 5H 6H", "T3 T4 EX 7H..QH 1D..8D", None]
    deal = make_deal(3, hands, FOUR_KINGS_CHIEN)
    deal = discard(bid(deal, "garde", "pass", "pass", "pass"), "1H 2H 3H QC T5 T6")
    deal = chelem(deal)
    assert offers(deal)[PoigneeLevel.TRIPLE] == trumps(7, 21)
    refuse(deal, ShowPoignee(0, card_set("T5 T7..T20")), IllegalPoignee, "illegal_poignee", "R9")


def test_R9_needs_fifteen_with_the_discard() -> None:
    # four Kings and the Excuse, 13 trumps in hand after the discard + 1 discarded = 14
    hands = ["KS KH KD KC EX T10..T21 1H", "T1 T2 1S..QS 6H 7H 8H", "T3..T7 9H..QH 1D..8D", None]
    deal = make_deal(3, hands, "T8 T9 2H 3H 4H 5H")
    deal = bid(deal, "garde", "pass", "pass", "pass")
    deal = chelem(discard(deal, "1H 2H 3H 4H 5H T8"))
    assert offers(deal) == {PoigneeLevel.SIMPLE: trumps(9, 18), PoigneeLevel.DOUBLE: trumps(9, 21)}
    refuse(deal, ShowPoignee(0, card_set("T8..T21 EX")), IllegalPoignee, "illegal_poignee", "R9")
    refuse(deal, ShowPoignee(0, card_set("T9..T21 EX KS")), IllegalPoignee, "illegal_poignee", "R8")


# R10 --------------------------------------------------------------------------------------

BASIC = ["T1..T6 1S..10S 1H 2H", "T7..T12 JS NS QS KS 3H..10H", "T13..T18 JH..KH 1D..8D", None]


def test_R10_only_the_taker_announces_chelem() -> None:
    deal = bid(make_deal(3, BASIC, REST), "pass", "pass", "garde_sans", "pass")
    assert deal.phase is Phase.CHELEM and deal.to_act == 2
    assert set(legal_actions(deal).actions) == {DeclareChelem(2, False), DeclareChelem(2, True)}
    error = refuse(deal, DeclareChelem(1, True), IllegalChelem, "illegal_chelem", "R10")
    assert "taker" in str(error)


def test_R10_an_announced_chelem_makes_the_taker_lead() -> None:
    deal = bid(make_deal(3, BASIC, REST), "pass", "pass", "garde_sans", "pass")
    announced = chelem(deal, True)
    assert announced.chelem and announced.to_act == 2 and announced.leader == 2
    quiet = chelem(deal, False)
    assert not quiet.chelem and quiet.to_act == 0


def test_R10_not_after_the_first_card() -> None:
    deal = bid(make_deal(3, BASIC, REST), "pass", "pass", "garde_sans", "pass")
    decided = chelem(deal, False)
    error = refuse(decided, DeclareChelem(2, True), IllegalChelem, "illegal_chelem", "R10")
    assert "twice" in str(error)
    deal = play(decided, "1S")
    error = refuse(deal, DeclareChelem(2, True), IllegalChelem, "illegal_chelem", "R10")
    assert "after the first card" in str(error)


def test_R10_chelem_comes_after_the_discard() -> None:
    deal = bid(make_deal(3, BASIC, REST), "garde", "pass", "pass", "pass")
    refuse(deal, DeclareChelem(0, True), WrongPhase, "wrong_phase", "")
    deal = chelem(discard(deal, "1S..6S"), True)
    assert deal.phase is Phase.PLAY and deal.to_act == 0
    assert codes("1S") == ["1S"]
