"""R1-R5: seats and order, the deal, cancelled deals, bidding."""

from __future__ import annotations

import random

import pytest

import engine
from engine import (
    Bid,
    Contract,
    Deal,
    DealOver,
    IllegalBid,
    InvalidDeal,
    NotYourTurn,
    Phase,
    Play,
    Series,
    WrongPhase,
    apply,
    legal_actions,
    new_deal,
    score,
)

from .helpers import bid, cards, chelem, discard, make_deal, play, refuse

# Dealer 3: seat 0 bids first. No seat holds a petit sec.
BASIC = ["T1..T6 1S..10S 1H 2H", "T7..T12 JS NS QS KS 3H..10H", "T13..T18 JH..KH 1D..8D", None]
BASIC_CHIEN = "9C..KC"


def basic(dealer: int = 3) -> Deal:
    return make_deal(dealer, BASIC, BASIC_CHIEN)


# R1 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_R1_dealers_right_bids_first_then_in_playing_order(dealer: int) -> None:
    deal = basic(dealer)
    first = (dealer + 1) % 4
    assert deal.to_act == first
    seen = []
    for _ in range(3):
        seen.append(deal.to_act)
        deal = bid(deal, "pass")
    seen.append(deal.to_act)
    assert seen == [first, (first + 1) % 4, (first + 2) % 4, (first + 3) % 4]


def test_R1_a_seat_out_of_turn_is_refused() -> None:
    deal = basic()
    error = refuse(deal, Bid(1, Contract.PRISE), NotYourTurn, "not_your_turn", "R1")
    assert "seat 1" in str(error) and "seat 0" in str(error)
    deal = bid(deal, "prise")
    refuse(deal, Bid(0, Contract.GARDE), NotYourTurn, "not_your_turn", "R1")


@pytest.mark.parametrize("dealer", range(4))
def test_R1_dealers_right_leads_the_first_trick_whoever_takes(dealer: int) -> None:
    deal = basic(dealer)
    # the third bidder takes with a garde sans; no chelem
    deal = bid(deal, "pass", "pass", "garde_sans", "pass")
    taker = (dealer + 3) % 4
    assert deal.taker == taker
    deal = chelem(deal, False)
    assert deal.phase is Phase.PLAY
    assert deal.to_act == (dealer + 1) % 4
    wrong = (dealer + 2) % 4
    card = engine.cards_of(deal.hands[wrong])[0]
    refuse(deal, Play(wrong, card), NotYourTurn, "not_your_turn", "R1")


def test_R1_play_passes_to_the_right() -> None:
    deal = chelem(bid(basic(), "garde_sans", "pass", "pass", "pass"))
    order = []
    for code in ["1S", "JS", "T13", "T19"]:
        order.append(deal.to_act)
        deal = play(deal, code)
    assert order == [0, 1, 2, 3]


def test_R1_series_passes_the_deal_to_the_right() -> None:
    series = Series(deals_to_play=5)
    dealers = []
    rng = random.Random(7)
    while not series.is_over:
        deal = series.deal(rng)
        dealers.append(deal.dealer)
        assert deal.dealer == series.dealer
        while not deal.is_over:
            deal = apply(deal, engine.random_action(deal, rng))
        series.record(score(deal))
    assert dealers == [i % 4 for i in range(len(dealers))]
    assert series.dealer == len(dealers) % 4
    assert sum(series.totals) == 0
    played = [s for s in series.sheets if s.status == "played"]
    assert len(played) == 5
    assert series.totals == [sum(s.scores[i] for s in played) for i in range(4)]


def test_R1_series_cancelled_deal_still_passes_the_deal() -> None:
    series = Series(deals_to_play=1, dealer=2)
    deal = series.deal(0)
    assert deal.dealer == 2 and not deal.cancelled
    series.record(score(bid(deal, "pass", "pass", "pass", "pass")))
    assert series.dealer == 3
    assert series.played == 0 and not series.is_over
    assert series.totals == [0, 0, 0, 0]


# R2 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, "table-7", b"\x01\x02"])
def test_R2_seeded_deal_is_reproducible(seed: int) -> None:
    first, again = new_deal(1, seed), new_deal(1, seed)
    assert first.dealt == again.dealt and first.chien == again.chien
    from_rng = new_deal(1, random.Random(seed))
    assert from_rng.dealt == first.dealt and from_rng.chien == first.chien


def test_R2_eighteen_cards_each_six_in_the_chien_all_78() -> None:
    for seed in range(20):
        deal = new_deal(seed % 4, seed)
        assert [h.bit_count() for h in deal.dealt] == [18, 18, 18, 18]
        assert deal.chien.bit_count() == 6
        union = deal.chien
        for hand in deal.dealt:
            assert not union & hand
            union |= hand
        assert union == (1 << 78) - 1


def test_R2_different_seeds_give_different_deals() -> None:
    assert len({new_deal(0, seed).dealt for seed in range(20)}) == 20


def test_R2_a_deal_that_is_not_78_distinct_cards_is_refused() -> None:
    hands = [cards(h) for h in ["T1..T6 1S..10S 1H 2H", "T7..T12 JS NS QS KS 3H..10H"]]
    hands += [cards("T13..T18 JH..KH 1D..8D"), cards("T19 T20 T21 EX 9D..KD 1C..8C")]
    chien = cards("9C..KC")
    assert engine.deal_from_hands(3, hands, chien).phase is Phase.BIDDING
    twice = [*hands[:3], [*hands[3][:-1], hands[0][0]]]
    with pytest.raises(InvalidDeal) as e:
        engine.deal_from_hands(3, twice, chien)
    assert (e.value.code, e.value.rule) == ("invalid_deal", "R2")
    assert "T1" in str(e.value)
    with pytest.raises(InvalidDeal):
        engine.deal_from_hands(3, [*hands[:3], hands[3][:-1]], [*chien, hands[3][-1]])
    with pytest.raises(InvalidDeal):
        engine.deal_from_hands(4, hands, chien)


# R3 ---------------------------------------------------------------------------------------

PETIT_SEC = ["T1 1S..KS 1H 2H 3H", "T2..T12 4H..10H", "T13..T21 EX JH..KH 1D 2D 3D 4D", None]
PETIT_SEC_CHIEN = "1C..6C"


def test_R3_petit_sec_cancels_the_deal_before_bidding() -> None:
    deal = make_deal(3, PETIT_SEC, PETIT_SEC_CHIEN)
    assert deal.phase is Phase.DONE and deal.cancelled == "petit_sec"
    assert not legal_actions(deal)
    sheet = score(deal)
    assert (sheet.status, sheet.reason, sheet.scores) == ("cancelled", "petit_sec", (0, 0, 0, 0))
    error = refuse(deal, Bid(0, Contract.PRISE), DealOver, "deal_over", "R3")
    assert "over" in str(error)


def test_R3_petit_sec_at_any_seat() -> None:
    for rotate in range(4):
        hands = PETIT_SEC[-rotate:] + PETIT_SEC[:-rotate] if rotate else PETIT_SEC
        assert make_deal(0, hands, PETIT_SEC_CHIEN).cancelled == "petit_sec"


def test_R3_petit_with_the_excuse_is_not_petit_sec() -> None:
    hands = ["T1 EX 1S..KS 1H 2H", "T2..T12 3H..9H", "T13..T21 10H JH..KH 1D 2D 3D 4D", None]
    deal = make_deal(3, hands, PETIT_SEC_CHIEN)
    assert deal.phase is Phase.BIDDING and not deal.cancelled
    assert engine.is_petit_sec(engine.mask_of(cards("T1 1S..KS 1H..4H")))
    assert not engine.is_petit_sec(engine.mask_of(cards("T1 EX 1S..KS 1H..3H")))
    assert not engine.is_petit_sec(engine.mask_of(cards("T1 T2 1S..KS 1H..3H")))
    assert not engine.is_petit_sec(engine.mask_of(cards("T2 1S..KS 1H..4H")))


def test_R3_checked_on_the_dealt_cards_not_after_the_chien() -> None:
    # Seat 0 holds the Petit and one other trump; the chien holds only suit cards.
    hands = ["T1 T2 1S..KS 1H 2H", "T3..T12 3H..10H", "T13..T21 EX JH..KH 1D 2D 3D 4D", None]
    deal = make_deal(3, hands, PETIT_SEC_CHIEN)
    assert not deal.cancelled
    deal = bid(deal, "garde", "pass", "pass", "pass")
    deal = discard(deal, "1C..6C")
    assert deal.phase is Phase.CHELEM


# R4 ---------------------------------------------------------------------------------------


def test_R4_all_pass_cancels_the_deal() -> None:
    deal = bid(basic(), "pass", "pass", "pass")
    assert deal.phase is Phase.BIDDING
    deal = bid(deal, "pass")
    assert deal.phase is Phase.DONE and deal.cancelled == "all_pass"
    assert deal.taker == -1
    sheet = score(deal)
    assert (sheet.status, sheet.reason, sheet.scores) == ("cancelled", "all_pass", (0, 0, 0, 0))
    assert sheet.to_json() == {"status": "cancelled", "reason": "all_pass", "scores": [0, 0, 0, 0]}
    refuse(deal, Bid(0, Contract.GARDE), DealOver, "deal_over", "R4")


def test_R4_a_bid_by_the_last_seat_is_enough() -> None:
    deal = bid(basic(), "pass", "pass", "pass", "prise")
    assert deal.taker == 3 and deal.contract is Contract.PRISE and not deal.cancelled


# R5 ---------------------------------------------------------------------------------------


def test_R5_bids_must_rise() -> None:
    deal = basic()
    assert legal_actions(deal).bids == list(Contract)
    deal = bid(deal, "garde")
    assert legal_actions(deal).bids == [Contract.PASS, Contract.GARDE_SANS, Contract.GARDE_CONTRE]
    for lower in ("prise", "garde"):
        error = refuse(deal, Bid(1, Contract.from_code(lower)), IllegalBid, "illegal_bid", "R5")
        assert lower in str(error) and "garde" in str(error)
    deal = bid(deal, "garde_contre")
    assert legal_actions(deal).bids == [Contract.PASS]
    refuse(deal, Bid(2, Contract.GARDE_CONTRE), IllegalBid, "illegal_bid", "R5")
    deal = bid(deal, "pass", "pass")
    assert (deal.taker, deal.contract) == (1, Contract.GARDE_CONTRE)


def test_R5_each_seat_bids_once_and_the_highest_takes() -> None:
    deal = bid(basic(), "prise", "pass", "garde", "pass")
    assert (deal.taker, deal.contract) == (2, Contract.GARDE)
    assert deal.bids == [Contract.PRISE, Contract.PASS, Contract.GARDE, Contract.PASS]
    assert deal.phase is Phase.DISCARD
    # bidding is closed: no fifth bid, even from the seat whose turn it now is
    refuse(deal, Bid(2, Contract.GARDE_SANS), WrongPhase, "wrong_phase", "")


def test_R5_multipliers() -> None:
    assert [c.multiplier for c in Contract] == [0, 1, 2, 4, 6]
    assert Contract.PASS < Contract.PRISE < Contract.GARDE < Contract.GARDE_SANS
    assert Contract.GARDE_SANS < Contract.GARDE_CONTRE
