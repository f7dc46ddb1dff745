"""R12 for search: ``beating_cards`` names the cards that would win a trick played to it now,
and ``HIGHER_OF`` the cards that beat a card in its own suit.

Checked against the independent scorer's trick winner (``oracle``, card codes
only) on every trick of many random deals, for every card not yet played to
it, and on literal tricks. The Excuse never wins (R13), not even a trick it
would lead.
"""

from __future__ import annotations

import random

import pytest

from engine import (
    ALL_CARDS,
    CODES,
    EXCUSE_BIT,
    HIGHER_OF,
    Phase,
    apply_in_place,
    beating_cards,
    cards_of,
    mask_of,
    new_deal,
    parse_cards,
    random_action,
)

from .oracle import winning_position


def _codes(mask: int) -> list[str]:
    return [CODES[c] for c in cards_of(mask)]


@pytest.mark.parametrize("seed", range(40))
def test_R12_the_cards_that_beat_a_trick_are_those_that_would_win_it(seed: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(seed % 4, rng)
    checked = 0
    while not deal.is_over:
        if deal.phase is Phase.PLAY:
            trick = [CODES[c] for c in deal.trick]
            beating = beating_cards(deal.trick, ALL_CARDS)
            for card in cards_of(ALL_CARDS & ~mask_of(deal.trick) & ~EXCUSE_BIT):
                wins = winning_position([*trick, CODES[card]]) == len(trick)
                assert bool(beating >> card & 1) == wins, (trick, CODES[card])
            checked += 1
        apply_in_place(deal, random_action(deal, rng))
    assert checked in (0, 72)  # a deal all passed, or every card of a played one


@pytest.mark.parametrize(
    ("trick", "cards", "beating"),
    [
        ([], ["1S", "T1", "EX"], ["T1", "1S"]),
        (["EX"], ["1S", "T1", "EX"], ["T1", "1S"]),
        (["10H", "KH"], ["QH", "1S", "T2", "EX"], ["T2"]),
        (["10H", "QH"], ["KH", "1H", "T2"], ["T2", "KH"]),
        (["EX", "7D"], ["8D", "6D", "KC"], ["8D"]),
        (["10H", "T5"], ["T3", "T7", "KH"], ["T7"]),
        (["T5", "T9", "T7"], ["T8", "T21", "EX"], ["T21"]),
        (["2C", "T1"], ["T2", "KC"], ["T2"]),
    ],
)
def test_R12_beating_cards_on_literal_tricks(
    trick: list[str], cards: list[str], beating: list[str]
) -> None:
    assert _codes(beating_cards(parse_cards(trick), mask_of(parse_cards(cards)))) == [
        CODES[c] for c in sorted(parse_cards(beating))
    ]


def test_R13_the_excuse_never_beats_a_trick() -> None:
    for trick in ([], ["1S"], ["T21"], ["T1", "1S"], ["2C", "3C", "4C"]):
        assert beating_cards(parse_cards(trick), EXCUSE_BIT) == 0


def test_beating_cards_keeps_only_the_cards_it_is_asked_about() -> None:
    trick = parse_cards(["10H"])
    assert beating_cards(trick, 0) == 0
    hand = mask_of(parse_cards(["JH", "2S"]))
    assert beating_cards(trick, hand) == mask_of(parse_cards(["JH"]))


def test_R12_the_cards_above_a_card_are_those_of_its_suit_of_higher_rank() -> None:
    """By codes: trumps by number, suit cards 1 < 2 < ... < 10 < J < N < Q < K."""
    order = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]

    def rank(code: str) -> int:
        return int(code[1:]) if code.startswith("T") else order.index(code[:-1])

    def suit(code: str) -> str:
        return "T" if code.startswith("T") else code[-1]

    for card, code in enumerate(CODES):
        higher = (
            set()
            if code == "EX"
            else {c for c in CODES if c != "EX" and suit(c) == suit(code) and rank(c) > rank(code)}
        )
        assert set(_codes(HIGHER_OF[card])) == higher, code
