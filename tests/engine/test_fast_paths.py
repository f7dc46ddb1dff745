"""The engine's fast paths say exactly what its plain rules say.

Search and the play loop use per-card tables (``SUIT_OF``, ``SUIT_MASK_OF``,
``RANK_OF``), a ``legal_cards`` with the led suit written out, a shuffle dealt
without ``deal_from_hands``' checks, a ``random_action`` that draws on the
legal-card bitset and an ``apply_in_place`` that plays a legal card in one
step (``move_card``, checked against the legal cards ``random_action`` or
``legal_actions`` left on the deal), and tricks settled on bitsets. Each is
checked here against the rule written the plain way, by card codes where it
can be (docs/RECORD.md), on every state of many random deals.
"""

from __future__ import annotations

import random

import pytest

from engine import (
    CODES,
    EXCUSE,
    Deal,
    IllegalAction,
    MustOvertrump,
    Phase,
    Play,
    apply_in_place,
    cards_of,
    deal_from_hands,
    legal_actions,
    new_deal,
    parse_card,
    random_action,
    score,
    to_record,
)
from engine.cards import RANK_OF, RANKS, SUIT_MASK_OF, SUIT_OF, SUITS, TRUMP_SUIT, mask_of, suit_of
from engine.tricks import (
    led_suit,
    led_suit_mask,
    legal_cards,
    move_card,
    play_card,
    undo_play,
    winning_position,
)

from .helpers import bid, cards, chelem, make_deal, play
from .oracle import score_record
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


@pytest.mark.parametrize("rich", [False, True])
@pytest.mark.parametrize("seed", range(30))
def test_move_card_leaves_the_state_play_card_leaves(seed: int, rich: bool) -> None:
    """``apply_in_place`` plays with ``move_card``, ``play_card`` without its undo record."""
    for deal in _states(seed, rich):
        if deal.phase is not Phase.PLAY:
            continue
        for card in cards_of(legal_cards(deal.hands[deal.to_act], deal.trick)):
            moved, played = deal.copy(), deal.copy()
            move_card(moved, card)
            play_card(played, card)
            assert moved == played


@pytest.mark.parametrize("memo", ["legal_actions", "random_action"])
@pytest.mark.parametrize("seed", range(12))
def test_a_play_checked_against_the_memo_is_checked_as_afresh(seed: int, memo: str) -> None:
    """``random_action`` and ``legal_actions`` leave the legal cards on the deal for
    ``apply_in_place``: every card is then accepted or refused, with the same error,
    as on a copy that holds no memo."""
    for deal in _states(seed):
        if deal.phase is not Phase.PLAY:
            continue
        seat = deal.to_act
        for card in range(78):
            fresh, memoized = deal.copy(), deal.copy()
            if memo == "legal_actions":
                legal_actions(memoized)
            else:
                random_action(memoized, random.Random(card))
            assert memoized.legal_hand == memoized.hands[seat]
            assert fresh == memoized  # the memo is no part of the state
            outcomes = []
            for state in (fresh, memoized):
                try:
                    apply_in_place(state, Play(seat, card))  # type: ignore[arg-type]
                    outcomes.append("played")
                except IllegalAction as e:
                    outcomes.append(f"{type(e).__name__} {e.rule} {e}")
            assert outcomes[0] == outcomes[1]
            assert fresh == memoized


# Dealer 3, seat 0 takes a garde sans and leads a heart; seats 1 and 2 hold no heart.
MEMO_HANDS = ["1H..9H 1D..9D", "T2 T20 1S..KS JD QD", "T1 T10 1C..KC KD ND", None]
MEMO_CHIEN = "10H JH NH QH KH 10D"


def _heart_led() -> Deal:
    deal = chelem(bid(make_deal(3, MEMO_HANDS, MEMO_CHIEN), "garde_sans", "pass", "pass", "pass"))
    return play(deal, "1H")


def test_a_memo_left_before_a_card_is_taken_back_is_not_used_after() -> None:
    """Search plays, lists, takes back and plays another card: seat 2 meets the same hand
    on another trick, where the legal cards differ (R11: overtrump T2, not T20)."""
    t1, t2, t20 = parse_card("T1"), parse_card("T2"), parse_card("T20")
    deal = _heart_led()
    undo = play_card(deal, t20)
    assert legal_actions(deal).cards == [t1, parse_card("T10")]  # cannot overtrump T20
    undo_play(deal, undo)
    play_card(deal, t2)
    with pytest.raises(MustOvertrump):
        apply_in_place(deal, Play(2, t1))
    deal = _heart_led()
    undo = play_card(deal, t2)
    assert legal_actions(deal).cards == [parse_card("T10")]
    undo_play(deal, undo)
    play_card(deal, t20)
    apply_in_place(deal, Play(2, t1))
    assert deal.trick[-1] == t1


def test_a_memo_is_not_used_for_a_hand_set_since() -> None:
    """AI sampling sets hands directly: the memo holds for the hand it was made from only."""
    deal = play(_heart_led(), "T2")
    assert legal_actions(deal).cards == [parse_card("T10")]
    deal.hands[2] &= ~mask_of(cards("T1 T10"))  # no trump left: any card (R11)
    apply_in_place(deal, Play(2, parse_card("1C")))
    assert deal.trick[-1] == parse_card("1C")


@pytest.mark.parametrize("rich", [False, True])
@pytest.mark.parametrize("seed", range(60))
def test_tricks_settled_on_bitsets_score_as_the_independent_scorer(seed: int, rich: bool) -> None:
    """Each trick's winner, the Excuse's side and half point (R12-R14) and the sheet,
    as ``oracle`` works them out from the card codes."""
    deal = _states(seed, rich)[-1]
    if deal.cancelled:
        return
    expected = score_record(to_record(deal))
    sheet = score(deal).to_json()
    for key, value in expected.items():
        assert sheet[key] == value, key
