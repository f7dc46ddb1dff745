"""The bots decide exactly as they did when docs/BENCHMARKS.md's arena figures were measured.

``decisions.json`` was written by the code of those figures (before the engine
went to bitset internals and ``ai`` lost its copies of the rules): for each
bot and seed, a digest of every action of the deal (bids, discard, chelem,
poignees, cards, as plain ints so that renames change nothing) and of the
next draw of the shared rng, so that a change in what a bot consumes of its
randomness shows too. Any refactoring of ``engine`` or
``ai`` must leave every digest as it is.

Regenerate (only for a deliberate change of play, with new arena figures):
``python -m tests.ai.test_decisions_unchanged``.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

import ai
from engine import (
    Action,
    Bid,
    DeclareChelem,
    Discard,
    Play,
    ShowPoignee,
    apply_in_place,
    new_deal,
    view,
)

GOLDEN = Path(__file__).with_name("decisions.json")
# (name, bot options per seat, seeds): cheap bots at every seat; strong (fixed
# samples, so that its decisions depend only on the view and the rng) at one
# seat against three experts, its endgame solver included.
MATCHES: tuple[tuple[str, tuple[tuple[str, dict[str, int]], ...], range], ...] = (
    ("random", (("random", {}),) * 4, range(200)),
    ("basic", (("basic", {}),) * 4, range(200)),
    ("expert", (("expert", {}),) * 4, range(200)),
    ("strong", (("strong", {"samples": 3}),) + (("expert", {}),) * 3, range(80)),
    ("strong-exact", (("strong", {"samples": 2, "exact_tricks": 2}),) * 4, range(6)),
)


def digest(bots: list[ai.AiPlayer], seed: int) -> str:
    """The digest of one deal played by ``bots`` (seat i plays ``bots[(i - seed) % 4]``)."""
    rng = random.Random(seed)
    deal = new_deal(seed % 4, rng)
    actions: list[list[int]] = [list(deal.dealt)]
    while not deal.is_over:
        seat = deal.to_act
        action = bots[(seat - seed) % 4].choose(view(deal, seat), rng)
        actions.append([seat, *_plain(action)])
        apply_in_place(deal, action)
    text = json.dumps([actions, rng.random()])
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _plain(action: Action) -> list[int]:
    if isinstance(action, Play):
        return [0, action.card]
    if isinstance(action, Bid):
        return [1, int(action.contract)]
    if isinstance(action, DeclareChelem):
        return [2, int(action.announce)]
    kind = 3 if isinstance(action, Discard) else 4
    assert isinstance(action, Discard | ShowPoignee)
    return [kind, *sorted(action.cards)]


def _bots(name: str) -> list[ai.AiPlayer]:
    for match, seats, _ in MATCHES:
        if match == name:
            return [ai.make_bot(level, **options) for level, options in seats]
    raise KeyError(name)


def record_all() -> dict[str, list[str]]:
    return {name: [digest(_bots(name), s) for s in seeds] for name, _, seeds in MATCHES}


@pytest.mark.parametrize("name", [m[0] for m in MATCHES])
def test_bots_decide_as_when_the_arena_figures_were_measured(name: str) -> None:
    golden = json.loads(GOLDEN.read_text())[name]
    seeds = next(seeds for match, _, seeds in MATCHES if match == name)
    assert len(golden) == len(seeds)
    bots = _bots(name)
    changed = [s for s, want in zip(seeds, golden, strict=True) if digest(bots, s) != want]
    assert changed == [], f"{name}: the decisions changed on seeds {changed}"


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(record_all(), indent=1) + "\n")
