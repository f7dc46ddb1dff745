"""One decision as the game record writes it (engine.action_entry, docs/RECORD.md): what the
server stores for each action, read back by engine.entry_action."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import engine
from engine.cards import parse_cards


def test_each_kind_of_action_has_an_entry_in_the_records_words() -> None:
    chien = frozenset(parse_cards(["NS", "2S", "10S"]))
    cases: list[tuple[engine.Action, dict[str, Any]]] = [
        (engine.Bid(2, engine.Contract.GARDE_SANS), {"seat": 2, "bid": "garde_sans"}),
        (engine.Discard(1, chien), {"seat": 1, "discard": ["2S", "10S", "NS"]}),
        (engine.DeclareChelem(1, True), {"seat": 1, "chelem": True}),
        (
            engine.ShowPoignee(3, frozenset(parse_cards(["T5", "T1"]))),
            {"seat": 3, "poignee": ["T1", "T5"]},
        ),
        (engine.Play(0, engine.EXCUSE), {"seat": 0, "play": "EX"}),
    ]
    for action, entry in cases:
        assert engine.action_entry(action) == entry
        assert engine.entry_action(entry) == action


def test_every_action_of_random_deals_round_trips_through_its_entry() -> None:
    rng = random.Random(7)
    for n in range(20):
        deal = engine.new_deal(n % 4, rng.randbytes(16))
        while not deal.is_over:
            action = engine.random_action(deal, rng)
            assert engine.entry_action(engine.action_entry(action)) == action
            engine.apply_in_place(deal, action)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ([], "must be an object"),
        ({"bid": "garde"}, "seat must be a seat 0-3, not None"),
        ({"seat": True, "bid": "garde"}, "seat must be a seat 0-3, not True"),
        ({"seat": 4, "bid": "garde"}, "seat must be a seat 0-3, not 4"),
        ({"seat": 0}, "needs one of bid, discard, chelem, poignee, play"),
        ({"seat": 0, "bid": "garde", "play": "KH"}, "needs one of"),
        ({"seat": 0, "action": {"kind": "play", "card": "KH"}}, "not ['action']"),
        ({"seat": 0, "bid": "grande"}, "unknown bid 'grande'"),
        ({"seat": 0, "play": "ZZ"}, "play: unknown card 'ZZ'"),
        ({"seat": 0, "play": ["KH"]}, "play: unknown card"),
        ({"seat": 0, "chelem": "yes"}, "chelem must be true or false"),
        ({"seat": 0, "discard": "KH"}, "discard must be a list of card codes"),
        ({"seat": 0, "poignee": ["T1", "T1"]}, "poignee: T1 listed twice"),
    ],
)
def test_a_malformed_entry_is_a_record_error_naming_what_is_wrong(entry: Any, message: str) -> None:
    with pytest.raises(engine.RecordError, match=re.escape(message)):
        engine.entry_action(entry)
