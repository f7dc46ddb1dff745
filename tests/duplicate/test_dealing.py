"""An event's deals follow from its seed: the same cards in the same seats for every entrant."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

import engine
from server.duplicate import DuplicateEvent, event_deal, event_deals
from server.duplicate.dealing import DERIVATION
from server.table.data import DealData, deal_state

SEEDS = st.binary(min_size=16, max_size=64)


def _cards(deal: engine.Deal) -> tuple[tuple[int, ...], int]:
    return deal.dealt, deal.chien


@given(SEEDS, st.integers(0, 63))
def test_a_deal_is_the_same_from_the_same_seed_and_index(seed: bytes, index: int) -> None:
    first, again = event_deal(seed, index), event_deal(seed, index)
    assert first == again and _cards(first.state()) == _cards(again.state())
    assert first.dealer == index % 4


@given(SEEDS, st.integers(0, 63))
def test_a_table_deals_the_event_deal_from_its_seed_and_dealer(seed: bytes, index: int) -> None:
    # What a table keeps of a deal (its seed in hex, its dealer) deals the same cards.
    deal = event_deal(seed, index)
    at_table = deal_state(DealData(number=1, dealer=deal.dealer, seed=deal.seed, started_ms=0))
    assert _cards(at_table) == _cards(deal.state())
    assert at_table.dealer == deal.dealer


@given(SEEDS)
def test_no_deal_of_an_event_is_cancelled_for_a_petit_sec(seed: bytes) -> None:
    deals = [event_deal(seed, index) for index in range(64)]
    assert all(deal.state().cancelled is None for deal in deals)
    assert len({deal.seed for deal in deals}) == 64


def _attempt(seed: bytes, index: int, attempt: int) -> bytes:
    message = b"%s deal %d attempt %d" % (DERIVATION, index, attempt)
    return hmac.new(seed, message, hashlib.sha256).digest()[:16]


def _is_petit_sec(index: int, deal_seed: bytes) -> bool:
    return engine.new_deal(index % 4, deal_seed).cancelled == "petit_sec"


def test_a_petit_sec_seed_is_skipped_for_the_next_attempt() -> None:
    seed = bytes(16)
    index = next(k for k in range(1000) if _is_petit_sec(k, _attempt(seed, k, 0)))
    attempt = next(j for j in range(1, 100) if not _is_petit_sec(index, _attempt(seed, index, j)))
    assert event_deal(seed, index).seed == _attempt(seed, index, attempt).hex()
    # and a deal that is not a petit sec keeps its first attempt
    assert event_deal(seed, index + 1).seed in {
        _attempt(seed, index + 1, 0).hex(),
        _attempt(seed, index + 1, 1).hex(),
    }


def test_the_derivation_does_not_change() -> None:
    # An event open while the server is upgraded must deal the same cards after: these
    # seeds are pinned. A change to the derivation is a new DERIVATION label.
    seed = bytes(range(32))
    assert [event_deal(seed, k).seed for k in range(3)] == PINNED
    hand = engine.cards_of(event_deal(seed, 0).state().dealt[0])
    assert " ".join(engine.card_code(c) for c in hand) == PINNED_HAND


PINNED = [
    "8f20c1f8c2beab3d7d6c3bf648b88f48",
    "f3d2025a8d3270389c8d27acb4692de8",
    "ad772b20946abe68f25f0602e202151a",
]
PINNED_HAND = "T12 T14 T18 EX 3S 4S 9S 10S NS 3H NH QH 2D 2C 3C 4C 6C 9C"


def test_the_event_deals_are_its_deals_in_order() -> None:
    opens = datetime(2026, 12, 1, tzinfo=UTC)
    event = DuplicateEvent("Daily", bytes(range(16)), 6, opens, opens + timedelta(days=1))
    deals = event_deals(event)
    assert [d.index for d in deals] == list(range(6)) and [d.dealer for d in deals] == [
        0,
        1,
        2,
        3,
        0,
        1,
    ]
    assert deals == tuple(event_deal(event.seed, k) for k in range(6))
    other = DuplicateEvent("Daily", bytes(range(1, 17)), 6, opens, opens + timedelta(days=1))
    assert not {d.seed for d in deals} & {d.seed for d in event_deals(other)}
