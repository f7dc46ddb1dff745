"""Make and unmake for search: ``undo_play`` restores exactly what ``play_card`` changed.

And ``taker_result``, the score as one number, is ``score``'s per-defender figure.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import Card, Deal, Phase, Play, apply_in_place, new_deal, random_action, score
from engine.records import _actions, _deal_of
from engine.scoring import taker_result
from engine.tricks import PlayUndo, play_card, undo_play

RECORDS = sorted(
    p for p in (Path(__file__).parents[1] / "records").glob("*.json") if ".sheet" not in p.name
)


def _play_and_undo(deal: Deal, plays: list[Card]) -> None:
    """Play ``plays`` one by one, then take them back, checking every state on the way."""
    states: list[Deal] = []
    undos: list[PlayUndo] = []
    for card in plays:
        states.append(deal.copy())
        undos.append(play_card(deal, card))
    for before, undo in zip(reversed(states), reversed(undos), strict=True):
        undo_play(deal, undo)
        assert deal == before


@pytest.mark.parametrize("seed", range(150))
def test_undo_play_restores_the_exact_state_over_random_deals(seed: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(seed % 4, rng)
    plays: list[Card] = []
    snapshots: list[Deal] = []
    while not deal.is_over:
        action = random_action(deal, rng)
        if isinstance(action, Play):
            snapshots.append(deal.copy())
            plays.append(action.card)
            played = deal.copy()
            undo = play_card(played, action.card)
            undo_play(played, undo)
            assert played == deal
        apply_in_place(deal, action)
    if not snapshots:
        return  # cancelled before play
    start = rng.randrange(len(snapshots))
    _play_and_undo(snapshots[start], plays[start:])


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_undo_play_restores_the_exact_state_in_every_record(path: Path) -> None:
    """The records hold the rare cases: chelems, the Excuse led last, the petit au bout."""
    record = json.loads(path.read_text())
    deal = _deal_of(record)
    plays: list[Card] = []
    start: Deal | None = None
    for _, action in _actions(record, deal):
        if isinstance(action, Play):
            start = start or deal.copy()
            plays.append(action.card)
        apply_in_place(deal, action)
    if start is None:
        return
    final = deal
    again = start.copy()
    _play_and_undo(again, plays)
    assert again == start
    for card in plays:
        play_card(again, card)
    assert again.phase is Phase.DONE  # poignees shown between cards are left out here
    assert again.tricks == final.tricks and again.won == final.won
    assert again.petit_au_bout == final.petit_au_bout


@pytest.mark.parametrize("seed", range(100))
def test_taker_result_is_twice_the_per_defender_score(seed: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(seed % 4, rng)
    while not deal.is_over:
        apply_in_place(deal, random_action(deal, rng))
    assert taker_result(deal) == round(2 * score(deal).per_defender)
