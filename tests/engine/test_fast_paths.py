"""The engine's fast paths say exactly what its plain rules say.

Search and the play loop use per-card tables (``SUIT_OF``, ``SUIT_MASK_OF``,
``RANK_OF``), a ``legal_cards`` with the led suit written out, a shuffle dealt
without ``deal_from_hands``' checks, a ``random_action`` that draws on the
legal-card bitset and an ``apply_in_place`` that plays a legal card in one
step. Each is checked here against the rule written the plain way, by card
codes where it can be (docs/RECORD.md), on every state of many random deals.
"""

from __future__ import annotations

import random

import pytest

from engine import (
    CODES,
    EXCUSE,
    Deal,
    IllegalAction,
    Phase,
    Play,
    apply_in_place,
    cards_of,
    deal_from_hands,
    legal_actions,
    new_deal,
    random_action,
)
from engine.cards import RANK_OF, RANKS, SUIT_MASK_OF, SUIT_OF, SUITS, TRUMP_SUIT, suit_of
from engine.tricks import led_suit, led_suit_mask, legal_cards, winning_position

from .oracle import winning_position as oracle_winning_position


def _trump_rich_deal(seed: int, rng: random.Random) -> Deal:
    """A deal where seat ``seed % 4`` holds 9 to 15 trumps (and the Excuse every other
    seed): poignees to show, which one random deal in fifty offers."""
    trumps = list(range(21))
    rng.shuffle(trumps)
    rich = trumps[: 9 + seed % 7] + ([EXCUSE] if seed % 2 else [])
    rest = [c for c in range(78) if c not in rich]
    rng.shuffle(rest)
    cut = 18 - len(rich)
    rich += rest[:cut]
    others = [rest[cut + 18 * i : cut + 18 * (i + 1)] for i in range(3)]
    hands = [*others[: seed % 4], rich, *others[seed % 4 :]]
    return deal_from_hands(seed % 4, hands, rest[cut + 54 :])


def _states(seed: int, rich: bool = False) -> list[Deal]:
    """Every state of one random deal, from the deal to the end."""
    rng = random.Random(seed)
    deal = _trump_rich_deal(seed, rng) if rich else new_deal(seed % 4, rng)
    states = [deal.copy()]
    while not deal.is_over:
        apply_in_place(deal, random_action(deal, rng))
        states.append(deal.copy())
    return states


def _plain_suit(code: str) -> str:
    return "" if code == "EX" else "T" if code.startswith("T") else code[-1]


def _legal_by_codes(hand: list[str], trick: list[str]) -> set[str]:
    """R11 read off the seed: follow, else trump and overtrump if possible; the Excuse always."""
    led = next((_plain_suit(c) for c in trick if c != "EX"), "")
    if not led:
        return set(hand)
    same = {c for c in hand if _plain_suit(c) == led}
    excuse = {"EX"} & set(hand)
    if same and led != "T":
        return same | excuse
    trumps = {c for c in hand if _plain_suit(c) == "T"}
    if not trumps:
        return set(hand)
    top = max((int(c[1:]) for c in trick if _plain_suit(c) == "T"), default=0)
    over = {c for c in trumps if int(c[1:]) > top}
    return (over or trumps) | excuse


def _suit_number(suit: str) -> int:
    return -1 if not suit else TRUMP_SUIT if suit == "T" else SUITS.index(suit)


def test_card_tables_match_the_codes() -> None:
    for card, code in enumerate(CODES):
        suit = _plain_suit(code)
        assert SUIT_OF[card] == suit_of(card) == _suit_number(suit)
        assert {CODES[c] for c in cards_of(SUIT_MASK_OF[card])} == (
            set() if not suit else {c for c in CODES if _plain_suit(c) == suit}
        )
        rank = -1 if not suit else int(code[1:]) - 1 if suit == "T" else RANKS.index(code[:-1])
        assert RANK_OF[card] == rank


@pytest.mark.parametrize("seed", range(60))
def test_legal_cards_and_the_trick_winner_follow_the_rules_on_every_trick(seed: int) -> None:
    for deal in _states(seed):
        if deal.phase is not Phase.PLAY:
            continue
        trick = [CODES[c] for c in deal.trick]
        hand = [CODES[c] for c in cards_of(deal.hands[deal.to_act])]
        legal = {CODES[c] for c in cards_of(legal_cards(deal.hands[deal.to_act], deal.trick))}
        assert legal == _legal_by_codes(hand, trick)
        led = next((_plain_suit(c) for c in trick if c != "EX"), "")
        assert led_suit(deal.trick) == _suit_number(led)
        assert {CODES[c] for c in cards_of(led_suit_mask(deal.trick))} == (
            {c for c in CODES if _plain_suit(c) == led} if led else set()
        )
        if led:
            assert winning_position(deal.trick) == oracle_winning_position(trick)
        else:
            assert winning_position(deal.trick) == -1


@pytest.mark.parametrize("rich", [False, True])
@pytest.mark.parametrize("seed", range(60))
def test_random_action_draws_what_the_list_of_legal_actions_would(seed: int, rich: bool) -> None:
    for deal in _states(seed, rich):
        if deal.is_over:
            continue
        draw = random.Random(seed * 1000 + len(deal.trick))
        listed = random.Random(seed * 1000 + len(deal.trick))
        legal = legal_actions(deal)
        if legal.discard is not None:
            want = legal.discard.sample(listed)
            assert random_action(deal, draw).cards == want  # type: ignore[union-attr]
        else:
            want_action = legal.actions[int(listed.random() * len(legal.actions))]
            assert random_action(deal, draw) == want_action
        assert draw.random() == listed.random()  # the same randomness consumed


@pytest.mark.parametrize("seed", range(40))
def test_a_play_is_applied_exactly_when_it_is_legal(seed: int) -> None:
    for deal in _states(seed):
        if deal.phase is not Phase.PLAY:
            continue
        seat = deal.to_act
        legal = legal_cards(deal.hands[seat], deal.trick)
        for card in range(78):
            for by in {seat, (seat + 1) % 4}:
                after = deal.copy()
                if by == seat and legal >> card & 1:
                    apply_in_place(after, Play(by, card))  # type: ignore[arg-type]
                    assert after.trick[-1:] == [card] or after.tricks[-1].cards[-1] == card
                    continue
                with pytest.raises(IllegalAction):
                    apply_in_place(after, Play(by, card))  # type: ignore[arg-type]
                assert after == deal


@pytest.mark.parametrize("seed", range(100))
def test_a_new_deal_is_the_shuffle_dealt_18_by_18(seed: int) -> None:
    deck = list(range(78))
    random.Random(seed).shuffle(deck)
    plain = deal_from_hands(seed % 4, [deck[18 * s : 18 * s + 18] for s in range(4)], deck[72:])
    assert new_deal(seed % 4, random.Random(seed)) == plain
