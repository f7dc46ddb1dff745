"""R11 (what may be played), R12 (who wins a trick), R13 and R14 (the Excuse)."""

from __future__ import annotations

import itertools

import engine
from engine import (
    EXCUSE,
    CardNotInHand,
    Deal,
    IllegalPlay,
    MustFollowSuit,
    MustOvertrump,
    MustTrump,
    NotYourTurn,
    Play,
    PlayedNotInHand,
    parse_card,
    view,
)
from engine.state import DEFENCE_SIDE, TAKER_SIDE
from engine.tricks import trick_winner_position

from .helpers import autoplay, bid, cards, chelem, codes, legal_codes, make_deal, play, refuse

# Dealer 3, seat 0 takes a garde sans and leads. Seats 1, 2, 3 defend.
FOLLOW = ["1H..7H T1 T2 T3 1D..8D", "8H 9H 10H 1S..KS ND", "T10 T11 1C..KC 9D 10D", None]
FOLLOW_CHIEN = "JH NH QH KH QD KD"  # seat 3: T4..T9 T12..T21 JD EX


def follow_deal() -> Deal:
    return chelem(bid(make_deal(3, FOLLOW, FOLLOW_CHIEN), "garde_sans", "pass", "pass", "pass"))


def hand_codes(deal: Deal, seat: int) -> set[str]:
    return {engine.card_code(c) for c in engine.cards_of(deal.hands[seat])}


def test_R11_must_follow_the_led_suit() -> None:
    deal = play(follow_deal(), "1H")
    assert legal_codes(deal) == {"8H", "9H", "10H"}
    error = refuse(deal, Play(1, parse_card("1S")), MustFollowSuit, "must_follow_suit", "R11")
    assert str(error) == "seat 1 played 1S but must follow hearts (R11)"
    refuse(deal, Play(1, parse_card("ND")), MustFollowSuit, "must_follow_suit", "R11")


def test_R11_must_trump_when_void() -> None:
    deal = play(follow_deal(), "1H 8H")
    assert legal_codes(deal) == {"T10", "T11"}
    for code in ("1C", "9D"):
        error = refuse(deal, Play(2, parse_card(code)), MustTrump, "must_trump", "R11")
        assert code in str(error) and "trump" in str(error)


def test_R11_must_overtrump_even_partner() -> None:
    deal = play(follow_deal(), "1H 8H T10")
    # seat 3 defends with seat 2, and still must beat its T10
    assert legal_codes(deal) == {f"T{n}" for n in range(12, 22)} | {"EX"}
    error = refuse(deal, Play(3, parse_card("T5")), MustOvertrump, "must_overtrump", "R11")
    assert str(error) == "seat 3 played T5 but must overtrump T10 (R11)"
    refuse(deal, Play(3, parse_card("JD")), MustTrump, "must_trump", "R11")
    deal = play(deal, "T12")
    assert deal.tricks[0].winner == 3


def test_R11_trumps_led_must_be_followed_and_overtrumped() -> None:
    deal = play(follow_deal(), "1H 8H T10 T12 T4")
    # seat 0 cannot beat T4: any trump, but a trump
    assert legal_codes(deal) == {"T1", "T2", "T3"}
    error = refuse(deal, Play(0, parse_card("1D")), MustFollowSuit, "must_follow_suit", "R11")
    assert "trumps" in str(error)
    deal = play(deal, "T2")
    # seat 1 has no trump: anything
    assert legal_codes(deal) == hand_codes(deal, 1)
    deal = play(deal, "ND")
    assert legal_codes(deal) == {"T11"}
    refuse(deal, Play(2, parse_card("1C")), MustFollowSuit, "must_follow_suit", "R11")
    deal = play(deal, "T11")
    assert deal.tricks[1].winner == 2


def test_R11_may_undertrump_only_when_unable_to_overtrump() -> None:
    deal = play(follow_deal(), "1H 8H T10 T12 T4 T2 ND T11 1C")
    assert legal_codes(deal) == {f"T{n}" for n in [5, 6, 7, 8, 9, *range(13, 22)]} | {"EX"}
    deal = play(deal, "T5")
    assert legal_codes(deal) == {"T1", "T3"}
    refuse(deal, Play(0, parse_card("2D")), MustTrump, "must_trump", "R11")
    deal = play(deal, "T3")
    assert legal_codes(deal) == hand_codes(deal, 1)  # no clubs, no trumps: anything


def test_R11_excuse_may_be_played_any_time_and_led() -> None:
    deal = play(follow_deal(), "1H 8H T10 T12 T4 T2 ND T11 1C T5 T3 1S")
    assert deal.to_act == 3 and "EX" in legal_codes(deal)
    deal = play(deal, "EX")
    # the Excuse led: the next card sets the suit
    assert legal_codes(deal) == hand_codes(deal, 0)
    deal = play(deal, "1D 2S")
    assert legal_codes(deal) == {"9D", "10D"}
    refuse(deal, Play(2, parse_card("2C")), MustFollowSuit, "must_follow_suit", "R11")
    deal = play(deal, "10D")
    assert deal.tricks[3].winner == 2


def test_R11_a_card_not_in_hand_is_refused() -> None:
    deal = play(follow_deal(), "1H")
    error = refuse(deal, Play(1, parse_card("KH")), PlayedNotInHand, "card_not_in_hand", "R11")
    assert isinstance(error, CardNotInHand) and isinstance(error, IllegalPlay)
    assert "KH" in str(error)


def test_R11_after_the_excuse_is_led_trumps_can_set_the_suit() -> None:
    # seat 0 leads the Excuse, seat 1 answers with a trump: trumps must follow
    hands = ["EX T1 T2 1S..10S 1D..5D", "1H..9H T3..T11", "10H JH T12..T18 1C..9C", None]
    deal = chelem(bid(make_deal(3, hands, "6D..JD"), "garde_sans", "pass", "pass", "pass"))
    deal = play(deal, "EX T3")
    assert legal_codes(deal) == {f"T{n}" for n in range(12, 19)}
    refuse(deal, Play(2, parse_card("10H")), MustFollowSuit, "must_follow_suit", "R11")


# R12 --------------------------------------------------------------------------------------


def position(text: str) -> int:
    return trick_winner_position(cards(text), False, False)


def test_R12_highest_card_of_the_led_suit_wins() -> None:
    ranks = codes("1S..10S JS NS QS KS")
    for low, high in itertools.pairwise(ranks):
        assert position(f"{low} {high} 1H 1D") == 1
    assert position("2H KS QD 5H") == 3  # other suits never win
    assert position("5H KS QD 2H") == 0
    assert position("QH KH NH JH") == 1  # K > Q > N > J


def test_R12_highest_trump_wins() -> None:
    assert position("KH T1 QH T2") == 3
    assert position("T21 T20 EX KH") == 0
    assert position("EX 5H KH T1") == 3


def test_R12_excuse_never_wins() -> None:
    assert position("EX 1H 2H 3H") == 3
    assert position("1H EX 2C 3D") == 0


def test_R12_the_winner_leads_next() -> None:
    deal = play(follow_deal(), "1H 8H T10 T12")
    assert deal.tricks[0].winner == 3 and deal.to_act == 3 and deal.leader == 3
    refuse(deal, Play(0, parse_card("2H")), NotYourTurn, "not_your_turn", "R1")


# R13 --------------------------------------------------------------------------------------

TAKER_EXCUSE = ["EX T1 T2 1S..10S 1D..5D", "1H..9H T3..T11", "10H JH T12..T18 1C..9C", None]


def test_R13_takers_excuse_stays_and_pays_half_a_point() -> None:
    deal = chelem(bid(make_deal(3, TAKER_EXCUSE, "6D..JD"), "garde_sans", "pass", "pass", "pass"))
    deal = play(deal, "EX 5H 10H KH")
    assert deal.tricks[0].winner == 3
    assert deal.won[TAKER_SIDE] == 1 << EXCUSE
    assert deal.excuse_transfer == -1
    # taker: EX 4.5 - 0.5; defence: 5H 0.5 + 10H 0.5 + KH 4.5 + 0.5
    assert view(deal, None).points == (4.0, 6.0)


# Seat 0 takes (garde sans) with T11..T21; seat 1 defends with the Excuse.
DEFENCE_EXCUSE = ["T11..T21 1S..7S", "EX T1..T5 8S..KS 1H..5H", "T6..T10 6H..KH 1D..4D", None]


def test_R13_defence_excuse_stays_and_pays_half_a_point() -> None:
    deal = chelem(bid(make_deal(3, DEFENCE_EXCUSE, "9C..KC"), "garde_sans", "pass", "pass", "pass"))
    deal = play(deal, "T21 EX T6 5D")
    assert deal.tricks[0].winner == 0
    assert deal.won[DEFENCE_SIDE] == 1 << EXCUSE
    assert deal.excuse_transfer == 1
    assert view(deal, 2).points == (6.0, 4.0)


def test_R13_no_half_point_when_the_excuse_side_wins() -> None:
    deal = play(follow_deal(), "1H 8H T10 T12 T4 T2 ND T11 1C T5 T3 1S EX 1D 2S 10D")
    assert deal.tricks[3].winner == 2
    assert deal.won[DEFENCE_SIDE] >> EXCUSE & 1 and deal.excuse_transfer == 0


# R14 --------------------------------------------------------------------------------------

# Dealer 0: seat 1 bids first. Seat 2 takes a garde sans with T1, T6..T21 and the Excuse.
SLAM = ["5D..KD 1C..8C", "T2 T3 1S..KS 1H 2H", "T1 T6..T21 EX", None]
SLAM_CHIEN = "9C..KC"  # seat 3: T4 T5 3H..KH 1D..4D


def slam_deal(announce: bool = True) -> Deal:
    deal = bid(make_deal(0, SLAM, SLAM_CHIEN), "pass", "garde_sans", "pass", "pass")
    return chelem(deal, announce)


def test_R14_excuse_led_to_the_last_trick_after_sweeping_wins_it() -> None:
    deal = autoplay(slam_deal(), {2: "T21..T6 T1 EX"})
    assert [t.winner for t in deal.tricks] == [2] * 18
    assert deal.tricks[17].cards[0] == EXCUSE
    assert deal.won[TAKER_SIDE] >> EXCUSE & 1 and deal.excuse_transfer == 0
    assert deal.won[TAKER_SIDE] | deal.chien == (1 << 78) - 1


def test_R14_excuse_led_to_the_last_trick_without_sweeping_goes_to_the_defence() -> None:
    # Dealer 1: seat 2 bids first, takes, leads 1S and loses trick 1
    hands = ["T4 T5 T6 4H..KH 1D..4D", "5D..KD 1C..8C", "1S T1 T7..T21 EX", None]
    deal = bid(make_deal(1, hands, "9C..KC"), "garde_sans", "pass", "pass", "pass")
    deal = autoplay(chelem(deal), {2: "1S T7 T21..T8 T1 EX"})
    assert deal.tricks[0].winner == 0
    assert [t.winner for t in deal.tricks[1:17]] == [2] * 16
    last = deal.tricks[17]
    assert last.cards[0] == EXCUSE and last.winner != 2
    assert deal.won[DEFENCE_SIDE] >> EXCUSE & 1 and not deal.won[TAKER_SIDE] >> EXCUSE & 1
    assert deal.excuse_transfer == 0  # no compensation at trick 18
    assert deal.petit_au_bout == -1  # T1 won trick 17, not the last


def test_R14_defence_excuse_at_the_last_trick_goes_to_the_taker() -> None:
    deal = chelem(bid(make_deal(3, DEFENCE_EXCUSE, "9C..KC"), "garde_sans", "pass", "pass", "pass"))
    deal = autoplay(deal)
    last = deal.tricks[17]
    assert EXCUSE in last.cards
    assert (last.leader + last.cards.index(EXCUSE)) % 4 == 1
    assert last.winner == 2  # the defence wins trick 18, the taker gets the Excuse
    assert deal.won[TAKER_SIDE] >> EXCUSE & 1 and deal.excuse_transfer == 0
    assert engine.score(deal).bouts == 3
