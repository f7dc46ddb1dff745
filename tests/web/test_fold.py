"""The browser's fold of server frames (clients/web/game.js), tested by Node's test runner
against tables recorded here from a real table runtime (tests/web/record.py).

``fold.test.js`` folds each follower's frames with ``applyFrame``, as the page's queue
does, and at every ``check`` compares the picture with the one the server's snapshot
at that moment gives: whose turn, the phase, the hand and hand sizes, the bids, the
chien and discard, the tricks and points, what may be played. The same test, run on
frames that the old fold got wrong (phase decided from the contract, a discard of six),
fails; see test_a_wrong_fold_is_caught.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import engine
from tests.deal_seeds import deal_from, ordinary, petit_sec, seeds

from .node import node_test
from .record import event_kinds, record_table

HERE = Path(__file__).resolve().parent
FOLD_TEST = HERE / "fold.test.js"


def poignee_in_hand(seed: str) -> bool:
    """An ordinary deal in which some seat holds ten trumps or more (a poignee to show)."""
    if not ordinary(seed):
        return False
    hands = engine.new_deal(0, bytes.fromhex(seed)).hands
    codes = [[engine.card_code(c) for c in engine.cards_of(hand)] for hand in hands]
    return any(sum(c.startswith("T") or c == "EX" for c in hand) >= 10 for hand in codes)


def table_seeds() -> list[str]:
    """A petit sec first (cancelled, dealt again), a deal with a poignee, then ordinary ones."""
    ordinary_ones = (s for s in seeds("fold") if ordinary(s))
    return [
        next(s for s in seeds("fold-petit") if petit_sec(s)),
        next(s for s in seeds("fold-poignee") if poignee_in_hand(s)),
        *(next(ordinary_ones) for _ in range(10)),
    ]


async def recorded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[Path, Any]:
    deal_from(monkeypatch, iter(table_seeds()))
    tables = await record_table(3, iter(table_seeds()), random.Random(5))
    path = tmp_path / "tables.json"
    path.write_text(json.dumps(tables))
    return path, tables


async def test_the_fold_agrees_with_the_server_s_snapshots(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path, tables = await recorded(monkeypatch, tmp_path)
    kinds = set().union(*(event_kinds(follower) for follower in tables.values()))
    # The recording covers what the fold must get right: a cancelled deal, a chien and a
    # discard, a chelem decision, a poignee, tricks, scores, between deals, the end.
    for kind in ("cancelled", "chien", "discard", "discard_kept", "chelem", "poignee"):
        assert kind in kinds, kind
    assert {"trick", "score", "between_deals", "table_over", "hand", "seat"} <= kinds
    checks = sum(f["type"] == "check" for t in tables.values() for f in t["frames"])
    assert checks > 200
    result = node_test(FOLD_TEST, {"TAROT_FOLD_TABLES": str(path)})
    assert result.returncode == 0, result.stdout + result.stderr


async def test_a_wrong_fold_is_caught(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The comparison bites: frames with one hand size changed fail the Node test."""
    path, tables = await recorded(monkeypatch, tmp_path)
    frames = tables["spectator"]["frames"]
    discard = next(f for f in frames if f["type"] == "event" and f["event"]["kind"] == "discard")
    frames.insert(frames.index(discard) + 1, {**discard, "seq": discard["seq"]})  # twice
    path.write_text(json.dumps({"spectator": {"seat": None, "frames": frames}}))
    result = node_test(FOLD_TEST, {"TAROT_FOLD_TABLES": str(path)})
    assert result.returncode != 0
    assert "handSizes" in result.stdout + result.stderr
