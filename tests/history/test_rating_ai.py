"""The AI levels' fixed ratings follow the duplicate arena's measured margins."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from ai import LEVELS
from server.history.rating_ai import AI_RATINGS, ANCHOR, MARGINS, ai_rating
from server.history.rating_model import POINTS_SCALE, START, Rating, expected_scores

ROOT = Path(__file__).resolve().parents[2]


def _benchmark_margins() -> dict[tuple[str, str], tuple[float, int]]:
    """The rows of docs/BENCHMARKS.md, "AI": (A, B) -> (margin, deals)."""
    found: dict[tuple[str, str], tuple[float, int]] = {}
    row = re.compile(
        r"^\| \*{0,2}(\w+)(?: \(`?(\w+)`?[^)]*\))? vs (\w+)[^|]*\| \*{0,2}([\d,]+)\*{0,2} \| "
        r"\*{0,2}([+−-][\d.]+)",
        re.M,
    )
    text = (ROOT / "docs" / "BENCHMARKS.md").read_text()
    section = text.split("\n## AI\n")[1].split("\n## ")[0]
    for a, variant, b, deals, margin in row.findall(section):
        key = (a if not variant else f"{a}:{variant}", b)
        found.setdefault(key, (float(margin.replace("−", "-")), int(deals.replace(",", ""))))
    return found


def test_every_level_has_a_fixed_rating_in_the_margins_order() -> None:
    assert set(AI_RATINGS) == set(LEVELS)
    assert sorted(LEVELS, key=AI_RATINGS.__getitem__) == list(LEVELS)  # weakest first
    assert AI_RATINGS[ANCHOR] == START
    for level in LEVELS:
        fixed = ai_rating(level)
        assert fixed == Rating(AI_RATINGS[level], 0, fixed=True) and not fixed.provisional
    assert ai_rating("strong:budget_ms=10") is None and ai_rating("nobody") is None


def test_each_gap_is_the_measured_margin_on_the_rating_scale() -> None:
    for m in MARGINS:
        assert m.margin > 0
        gap = AI_RATINGS[m.stronger] - AI_RATINGS[m.weaker]
        assert math.isclose(gap, POINTS_SCALE * m.margin)
        # Under the model the stronger level, alone against three of the weaker, is
        # expected to score the arena's margin per deal.
        seats = [AI_RATINGS[m.stronger], *[AI_RATINGS[m.weaker]] * 3]
        assert math.isclose(expected_scores(seats)[0], m.margin)


def test_the_margins_are_the_ones_the_benchmarks_and_results_report() -> None:
    measured = _benchmark_margins()
    assert measured[("basic", "random")] == (375.3, 100_000)
    assert measured[("expert", "basic")] == (11.6, 100_000)
    assert measured[("strong:fast", "expert")] == (18.52, 2_000)
    quoted = {("basic", "random"), ("expert", "basic"), ("strong:fast", "expert")}
    for m in MARGINS:
        key = next(k for k in quoted if k[1] == m.weaker)
        assert measured[key] == (m.margin, m.deals), m
    kept = json.loads(
        (ROOT / "docs/results/2026-11-29/arena-strong-fast-vs-expert.json").read_text()
    )
    strong = next(m for m in MARGINS if m.stronger == "strong")
    assert (kept["margin"], kept["deals"], kept["b"]) == (strong.margin, strong.deals, "expert")


def test_the_chain_of_margins_predicts_strong_against_random_within_a_twentieth() -> None:
    """Not used to calibrate: strong against random, measured directly (1,000 deals),
    against what the chain random -> basic -> expert -> strong predicts."""
    kept = json.loads(
        (ROOT / "docs/results/2026-11-29/arena-strong-fast-vs-random.json").read_text()
    )
    predicted = (AI_RATINGS["strong"] - AI_RATINGS["random"]) / POINTS_SCALE
    assert abs(predicted - kept["margin"]) / kept["margin"] < 0.05
