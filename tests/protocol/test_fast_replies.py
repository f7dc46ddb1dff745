"""The server's hottest reply, ``your_turn``, is built without the models (issue 18: they
cost ~9 us a turn); here it is pinned to the models' own frame, byte for byte, in every
phase and with both codecs."""

from __future__ import annotations

import random

import engine
from protocol import models as m
from protocol.codecs import CODECS
from protocol.convert import legal_model
from protocol.frames import your_turn_json


def decision_points(deals: int, seed: int) -> list[engine.Legal]:
    """The legal choices at every decision of ``deals`` random deals (seeded)."""
    rng = random.Random(seed)
    found = []
    for number in range(deals):
        deal = engine.new_deal(number % 4, rng)
        while not deal.is_over:
            found.append(engine.legal_actions(deal))
            engine.apply_in_place(deal, engine.random_action(deal, rng))
    return found


def test_your_turn_frames_are_the_models_frames_in_every_phase() -> None:
    points = decision_points(150, seed=18)
    phases = {legal.phase for legal in points}
    assert {engine.Phase.BIDDING, engine.Phase.DISCARD, engine.Phase.PLAY} <= phases
    assert any(legal.poignees for legal in points), "a poignee offer was met"
    for n, legal in enumerate(points):
        deadline = None if n % 2 else 1_700_000_000_000 + n
        choices = legal_model(legal)
        assert choices is not None  # a deal not over has a seat to act
        model = m.YourTurn(table_id="t1", seq=n, legal=choices, deadline_ms=deadline)
        fast = your_turn_json("t1", n, legal, deadline)
        for codec in CODECS.values():
            frame = codec.dumps(fast)
            assert frame == codec.encode(model)
            assert codec.decode_server(frame) == model
