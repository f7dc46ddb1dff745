"""Properties over random seeded deals played with random legal decisions.

Every test draws a seed and a dealer; ``random.Random(seed)`` shuffles and picks
each decision among the legal ones (``engine.random_action``), so a failure
replays from the seed hypothesis prints.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import (
    Action,
    Bid,
    Contract,
    DeclareChelem,
    Discard,
    IllegalAction,
    IllegalDiscard,
    Phase,
    Play,
    ShowPoignee,
    apply,
    apply_in_place,
    legal_actions,
    load_record,
    random_action,
    score,
    step,
    to_record,
    view,
)
from engine.cards import ALL_CARDS, TRUMPS, cards_of, half_points, mask_of
from engine.state import DEFENCE_SIDE

from .oracle import score_record

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
DEALERS = st.integers(min_value=0, max_value=3)
FEW = settings(max_examples=100, deadline=None, database=None)
MANY = settings(max_examples=300, deadline=None, database=None)


Step = tuple[engine.Deal, Action, engine.Deal, list[engine.DealEvent]]


def steps(seed: int, dealer: int) -> Iterator[Step]:
    """Each transition of a random deal: (before, action, after, events)."""
    rng = random.Random(seed)
    deal = engine.new_deal(dealer, rng)
    while not deal.is_over:
        action = random_action(deal, rng)
        after, events = step(deal, action)
        yield deal, action, after, events
        deal = after


def finished(seed: int, dealer: int) -> engine.Deal:
    rng = random.Random(seed)
    deal = engine.new_deal(dealer, rng)
    while not deal.is_over:
        deal = apply(deal, random_action(deal, rng))
    return deal


def played_cards(deal: engine.Deal) -> int:
    return mask_of(c for t in deal.tricks for c in t.cards) | mask_of(deal.trick)


def chien_apart(deal: engine.Deal) -> bool:
    """The chien is still a pile of its own (not in the taker's hand)."""
    return (
        deal.phase is Phase.BIDDING or deal.cancelled is not None or not deal.contract.shows_chien
    )


# Conservation, termination, legality -------------------------------------------------------


@MANY
@given(SEEDS, DEALERS)
def test_78_cards_conserved_at_every_step(seed: int, dealer: int) -> None:
    for _, _, deal, _ in steps(seed, dealer):
        piles = [*deal.hands, deal.discard, played_cards(deal)]
        if chien_apart(deal):
            piles.append(deal.chien)
        assert sum(p.bit_count() for p in piles) == 78
        union = 0
        for pile in piles:
            union |= pile
        assert union == ALL_CARDS
        in_tricks = mask_of(c for t in deal.tricks for c in t.cards)
        assert deal.won[0] | deal.won[1] == in_tricks
        assert not deal.won[0] & deal.won[1]


@MANY
@given(SEEDS, DEALERS)
def test_the_deal_ends_and_legal_actions_are_never_empty_before(seed: int, dealer: int) -> None:
    count = 0
    for before, action, _, _ in steps(seed, dealer):
        legal = legal_actions(before)
        assert legal and legal.seat == before.to_act == action.seat
        count += 1
    deal = finished(seed, dealer)
    assert not legal_actions(deal) and deal.to_act == -1
    if not deal.cancelled:
        assert len(deal.tricks) == 18 and not any(deal.hands)
        assert count >= 4 + 1 + 72


@FEW
@given(SEEDS, DEALERS)
def test_every_listed_action_applies(seed: int, dealer: int) -> None:
    rng = random.Random(seed ^ 0x5EED)
    for before, _, _, _ in steps(seed, dealer):
        legal = legal_actions(before)
        for action in legal.actions:
            apply(before, action)
        if legal.discard is not None:
            apply(before, Discard(legal.seat, legal.discard.default()))
            apply(before, Discard(legal.seat, legal.discard.sample(rng)))
        for offer in legal.poignees:
            apply(before, ShowPoignee(legal.seat, _other_subset(before, offer, rng)))


def _other_subset(
    deal: engine.Deal, offer: engine.PoigneeOffer, rng: random.Random
) -> frozenset[engine.Card]:
    """Another valid poignee of the offer's level: random trumps of the same pool."""
    pool = [c for c in offer.cards if c != engine.EXCUSE]
    if engine.EXCUSE in offer.cards:
        return offer.cards  # every trump must be shown: no other choice
    held = cards_of(deal.hands[deal.to_act] & TRUMPS) + [
        c for c in offer.cards if not deal.hands[deal.to_act] >> c & 1
    ]
    return frozenset(rng.sample(sorted(set(held) | set(pool)), int(offer.level)))


@MANY
@given(SEEDS, DEALERS, SEEDS)
def test_a_random_action_is_applied_or_refused_with_a_typed_error(
    seed: int, dealer: int, fuzz_seed: int
) -> None:
    fuzz = random.Random(fuzz_seed)
    for before, _, _, _ in steps(seed, dealer):
        action = _random_action_of_any_kind(before, fuzz)
        legal = legal_actions(before)
        snapshot = before.copy()
        in_place = before.copy()
        try:
            apply_in_place(in_place, action)
        except IllegalAction as e:
            assert in_place == snapshot, "a refused action changed the state"
            assert e.code and action not in legal.actions
            assert legal.discard is None or not legal.discard.is_valid(set(action_cards(action)))
        else:
            assert action.seat == legal.seat
            if isinstance(action, Discard):
                assert legal.discard is not None and legal.discard.is_valid(action.cards)
            elif isinstance(action, ShowPoignee):
                shown = mask_of(action.cards)
                assert before.phase is Phase.PLAY and not shown & ~(TRUMPS | 1 << engine.EXCUSE)
                assert not shown & ~(before.hands[action.seat] | before.discard)
            else:
                assert action in legal.actions
        assert before == snapshot


def action_cards(action: Action) -> frozenset[engine.Card]:
    return action.cards if isinstance(action, Discard | ShowPoignee) else frozenset()


def _random_action_of_any_kind(deal: engine.Deal, rng: random.Random) -> Action:
    seat = rng.randrange(4) if rng.random() < 0.3 else max(deal.to_act, 0)
    kind = rng.randrange(5)
    if kind == 0:
        return Bid(seat, rng.choice(list(Contract)))
    if kind == 1:
        cards = rng.sample(range(78), rng.choice([5, 6, 6, 7]))
        return Discard(seat, frozenset(engine.Card(c) for c in cards))
    if kind == 2:
        return DeclareChelem(seat, rng.random() < 0.5)
    if kind == 3:
        cards = rng.sample(range(22), rng.choice([10, 13, 15]))
        return ShowPoignee(seat, frozenset(engine.Card(c) for c in cards))
    hand = cards_of(deal.hands[seat])
    card = rng.choice(hand) if hand and rng.random() < 0.8 else rng.randrange(78)
    return Play(seat, engine.Card(card))


@MANY
@given(SEEDS, DEALERS)
def test_apply_never_mutates_its_argument(seed: int, dealer: int) -> None:
    for before, action, after, _ in steps(seed, dealer):
        snapshot = dataclasses.replace(before.copy())
        record = json.dumps(to_record(before))
        again = apply(before, action)
        assert before == snapshot and json.dumps(to_record(before)) == record
        assert again == after and again is not before
        assert again.hands is not before.hands and again.trick is not before.trick


# Discard (R6) -------------------------------------------------------------------------------


def _is_valid_discard(hand: list[str], chosen: list[str]) -> bool:
    """R6, written from the rules text: no King, no bout, ordinary cards first."""
    if len(set(chosen)) != 6 or not set(chosen) <= set(hand):
        return False
    if any(c in ("T1", "T21", "EX") or c.startswith("K") for c in chosen):
        return False
    ordinary = [c for c in hand if not c.startswith("T") and c != "EX" and not c.startswith("K")]
    trumps = [c for c in chosen if c.startswith("T")]
    return not trumps or set(ordinary) <= set(chosen)


@MANY
@given(SEEDS, DEALERS, st.sampled_from(["prise", "garde"]))
def test_discard_rule_accepts_exactly_the_valid_discards(
    seed: int, dealer: int, contract: str
) -> None:
    rng = random.Random(seed + 1)
    deal = engine.new_deal(dealer, seed)
    if deal.cancelled:
        return
    deal = apply(deal, Bid(deal.to_act, Contract.from_code(contract)))
    for _ in range(3):
        deal = apply(deal, Bid(deal.to_act, Contract.PASS))
    rule = legal_actions(deal).discard
    assert rule is not None
    hand = cards_of(deal.hands[deal.taker])
    codes = [engine.card_code(c) for c in hand]
    sample = rule.sample(rng)
    assert _is_valid_discard(codes, [engine.card_code(c) for c in sample])
    assert apply(deal, Discard(deal.taker, sample)).phase is Phase.CHELEM
    tries = [frozenset(rng.sample(hand, 6)) for _ in range(30)]
    tries += [frozenset(rng.sample(hand, 5)), frozenset(map(engine.Card, rng.sample(range(78), 6)))]
    for chosen in tries:
        valid = _is_valid_discard(codes, [engine.card_code(c) for c in chosen])
        assert rule.is_valid(chosen) == valid
        try:
            apply(deal, Discard(deal.taker, chosen))
        except IllegalDiscard as e:
            assert not valid and e.rule == "R6"
        else:
            assert valid


# Scores ------------------------------------------------------------------------------------


@MANY
@given(SEEDS, DEALERS)
def test_card_points_total_91_and_scores_sum_to_zero(seed: int, dealer: int) -> None:
    deal = finished(seed, dealer)
    sheet = score(deal)
    assert sum(sheet.scores) == 0
    if deal.cancelled:
        assert sheet.scores == (0, 0, 0, 0)
        return
    defence_cards = deal.won[DEFENCE_SIDE]
    if deal.contract is Contract.GARDE_CONTRE:
        defence_cards |= deal.chien
    defence = (half_points(defence_cards) - deal.excuse_transfer) / 2
    assert sheet.points + defence == 91
    assert sheet.points * 2 == int(sheet.points * 2)
    assert sheet.scores[sheet.taker] == -3 * sheet.scores[(sheet.taker + 1) % 4]


@MANY
@given(SEEDS, DEALERS)
def test_score_agrees_with_the_independent_scorer(seed: int, dealer: int) -> None:
    deal = finished(seed, dealer)
    expected = score_record(to_record(deal))
    sheet = score(deal).to_json()
    for key, value in expected.items():
        assert sheet[key] == value, key


@MANY
@given(SEEDS, DEALERS)
def test_export_then_import_gives_the_same_sheet(seed: int, dealer: int) -> None:
    deal = finished(seed, dealer)
    text = json.dumps(to_record(deal))
    again = load_record(json.loads(text))
    assert score(again) == score(deal)
    assert to_record(again) == to_record(deal)


# Views never leak ----------------------------------------------------------------------------

VIEW_FIELDS = {
    *("seat", "dealer", "phase", "to_act", "hand", "hand_sizes", "bids", "taker"),
    *("contract", "chien", "discard", "discard_trumps", "chelem", "poignees"),
    *("trick_leader", "trick", "tricks", "points", "tricks_won", "legal", "sheet", "cancelled"),
    *("taker_bouts", "target", "discard_points"),
}


def public_cards(deal: engine.Deal) -> int:
    cards = played_cards(deal) | (deal.discard & TRUMPS)
    for shown in deal.poignees.values():
        cards |= shown
    if deal.taker >= 0 and deal.contract.shows_chien:
        cards |= deal.chien
    return cards


def known_to(deal: engine.Deal, seat: int | None) -> int:
    if seat is None:
        return public_cards(deal)
    known = public_cards(deal) | deal.dealt[seat]
    if seat == deal.taker:
        known |= deal.discard
    return known


def view_cards(v: engine.View) -> int:
    cards = mask_of(v.hand) | mask_of(v.chien or ()) | mask_of(v.discard or ())
    cards |= mask_of(v.discard_trumps) | mask_of(v.trick)
    for _, shown in v.poignees:
        cards |= mask_of(shown)
    for trick in v.tricks:
        cards |= mask_of(trick.cards)
    for action in v.legal.actions:
        if isinstance(action, Play):
            cards |= 1 << action.card
        elif isinstance(action, ShowPoignee | Discard):
            cards |= mask_of(action.cards)
    if v.legal.discard is not None:
        cards |= mask_of(v.legal.discard.allowed)
    return cards


def event_cards(event: engine.DealEvent) -> int:
    cards = mask_of(getattr(event, "cards", ())) | mask_of(getattr(event, "trumps", ()))
    card = getattr(event, "card", None)
    if card is not None:
        cards |= 1 << card
    trick = getattr(event, "trick", None)
    if trick is not None:
        cards |= mask_of(trick.cards)
    return cards


@FEW
@given(SEEDS, DEALERS)
def test_views_and_events_never_leak(seed: int, dealer: int) -> None:
    first = engine.new_deal(dealer, seed)
    for event in engine.deal_events(first):
        audience = (None,) if event.audience is engine.PUBLIC else event.audience
        for seat in audience:
            assert not event_cards(event) & ~known_to(first, seat)
    for _, _, deal, events in steps(seed, dealer):
        for seat in (None, 0, 1, 2, 3):
            v = view(deal, seat)
            assert {f.name for f in dataclasses.fields(v)} == VIEW_FIELDS
            assert not view_cards(v) & ~known_to(deal, seat), (seat, deal.phase)
            assert mask_of(v.hand) == (deal.hands[seat] if seat is not None else 0)
            if not (deal.taker >= 0 and deal.contract.shows_chien):
                assert v.chien is None
            if seat != deal.taker:
                assert v.discard is None
                assert v.discard_points is None  # the discard's worth is the taker's to know
            if seat != deal.to_act:
                assert not v.legal
        for event in events:
            audience = (None,) if event.audience is engine.PUBLIC else event.audience
            for seat in audience:
                assert not event_cards(event) & ~known_to(deal, seat), event
