"""Every engine event has a wire form, or is one the table sends itself: none is forgotten."""

from __future__ import annotations

import random
from typing import get_args

import pytest

import engine
from protocol import EVENTS
from protocol.convert import TABLE_EVENTS, WIRE_EVENTS, WireEvent, event_model


def test_the_engine_events_are_split_between_the_wire_and_the_table() -> None:
    every = set(get_args(engine.DealEvent))
    assert set(WIRE_EVENTS) | set(TABLE_EVENTS) == every
    assert not set(WIRE_EVENTS) & set(TABLE_EVENTS)
    assert set(get_args(WireEvent)) == set(WIRE_EVENTS)


def events_of_a_deal(seed: int) -> list[engine.DealEvent]:
    """Every event of a deal played at random from ``seed``."""
    rng = random.Random(seed)
    deal = engine.new_deal(seed % 4, rng)
    events = list(engine.deal_events(deal))
    while not deal.is_over:
        deal, more = engine.step(deal, engine.random_action(deal, rng))
        events += more
    return events


@pytest.mark.parametrize("seed", range(12))
def test_every_event_of_a_deal_converts_and_validates(seed: int) -> None:
    seen = set()
    for event in events_of_a_deal(seed):
        if isinstance(event, WIRE_EVENTS):
            wire = event_model(event)
            assert EVENTS.validate_python(wire.model_dump(mode="json")) == wire
            seen.add(type(event))
        else:
            assert isinstance(event, TABLE_EVENTS)
    assert engine.CardPlayed in seen or engine.DealCancelled in seen
