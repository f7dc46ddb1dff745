"""``tarot bench engine``: a smoke test of its output (figures, no timing assertions)."""

from __future__ import annotations

import json
import random

import pytest

from cli.bench.bitset_loop import _legal, random_deal
from cli.main import main
from engine import EXCUSE, SUIT_MASK_OF, legal_cards


def test_bench_engine_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--json", "--deals", "50", "--runs", "1"]) == 0
    out = capsys.readouterr()
    assert out.err == "" and out.out.count("\n") == 1
    figures = json.loads(out.out)
    assert figures["deals_per_second"] > 0 and figures["us_per_play"] > 0
    assert (figures["runs"], figures["deals_per_run"]) == (1, 50)
    # The bare bitset loop ran beside the engine in the same run, and the ratio of the two.
    loop = figures["bitset_loop_deals_per_second"]
    assert loop > 0 and figures["ratio"] == pytest.approx(figures["deals_per_second"] / loop, 0.01)
    assert figures["ratios"] == [figures["ratio"]]
    search = figures["search_deals_per_second"]
    assert search > 0 and figures["search_ratio"] == pytest.approx(search / loop, 0.01)


def test_bench_engine_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--deals", "20", "--runs", "1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("engine: ") and "complete deals/s" in text and "us per card play" in text
    assert "bare bitset loop: " in text and "engine / loop: " in text and "search path: " in text


@pytest.mark.parametrize("seed", range(20))
def test_the_bitset_loop_plays_legal_cards(seed: int) -> None:
    """The yardstick's own legal mask is R11's (``engine.legal_cards``), and it ends."""
    rng = random.Random(seed)
    for _ in range(200):
        hand = rng.getrandbits(78)
        trick = rng.sample(range(78), rng.randrange(1, 4))
        led = next((c for c in trick if c != EXCUSE), None)
        if led is None:
            continue
        top = max((c for c in trick if c < 21), default=-1)
        assert _legal(hand, SUIT_MASK_OF[led], top) == legal_cards(hand, trick)
    assert 0 <= random_deal(rng) <= 182
