"""The duplicate arena: its margins and intervals are right on rigged cases."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from ai.arena import (
    BotSpec,
    PoolError,
    Summary,
    bootstrap_ci,
    percentile,
    play_duplicate,
    pool,
)
from cli.main import main


def test_random_against_itself_has_an_interval_covering_zero() -> None:
    spec = BotSpec.parse("random")
    summary = Summary("random", "random")
    for index in range(40):
        summary.add(play_duplicate(spec, spec, index, seed=3))
    figures = summary.to_json(seed=3)
    assert figures["ci_low"] <= 0 <= figures["ci_high"]
    assert figures["illegal"] == 0


def test_identical_deterministic_bots_have_a_zero_margin() -> None:
    spec = BotSpec.parse("basic")
    for index in range(5):
        result = play_duplicate(spec, spec, index, seed=11)
        assert result.margin == 0
        assert all(t.scores == result.tables[-1].scores for t in result.tables)


def test_margin_is_a_minus_b_in_the_same_seat_averaged_over_seatings() -> None:
    a, b = BotSpec.parse("basic"), BotSpec.parse("random")
    result = play_duplicate(a, b, 0, seed=5)
    reference = result.tables[-1].scores
    by_hand = sum(result.tables[s].scores[s] - reference[s] for s in range(4)) / 4
    assert result.margin == pytest.approx(by_hand)
    assert [t.table for t in result.tables] == ["A0", "A1", "A2", "A3", "B"]
    assert all(t.record["hands"] == result.tables[0].record["hands"] for t in result.tables)


def test_a_duplicate_deal_is_reproducible() -> None:
    a, b = BotSpec.parse("basic"), BotSpec.parse("random")
    assert play_duplicate(a, b, 7, seed=1).margin == play_duplicate(a, b, 7, seed=1).margin


def test_bootstrap_interval_of_a_constant_is_that_constant() -> None:
    assert bootstrap_ci([2.5] * 30, random.Random(0)) == (2.5, 2.5)


def test_bootstrap_interval_covers_the_mean_of_a_known_sample() -> None:
    rng = random.Random(1)
    values = [rng.gauss(10, 5) for _ in range(400)]
    low, high = bootstrap_ci(values, random.Random(2))
    mean = sum(values) / len(values)
    assert low < mean < high
    # Standard error 5 / sqrt(400) = 0.25: the interval is about +-0.5 wide.
    assert 0.3 < (high - low) / 2 < 0.7


def test_percentile() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 51
    assert percentile(values, 0.99) == 100


def test_bot_spec_parses_options_and_refuses_unknown_levels() -> None:
    assert str(BotSpec.parse("random")) == "random"
    with pytest.raises(ValueError):
        BotSpec.parse("wizard")
    with pytest.raises(ValueError):
        BotSpec.parse("basic:budget_ms")


def test_max_seconds_ends_a_match_early_with_the_deals_done(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["arena", "basic", "random", "--deals", "1000", "--max-seconds", "0", "--json"]
    assert main(argv) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["deals"] == 1 and figures["illegal"] == 0


def test_matches_count_series_won_by_a_against_each_b_at_its_table() -> None:
    summary = Summary("a", "b", match_deals=2)
    # Deals 0-1: at table A0, A totals 10 and the best B 9 (won); at A1, a B ties A (lost).
    summary.seated = [
        [(5, 0, 4, -9), (3, 3, -3, -3), (1, 0, 0, -1), (0, 1, 0, -1)],
        [(5, -1, 5, -9), (1, 1, -1, -1), (1, 0, 0, -1), (0, 1, 0, -1)],
        [(9, -3, -3, -3)] * 4,  # a third deal: not a whole match
    ]
    figures = summary.matches(random.Random(0))
    assert (figures["played"], figures["won"]) == (4, 2)  # A0 and A2 won, A1 tied, A3 lost
    assert 0 < figures["bootstrap_rate"] < 1


def test_a_bot_that_always_leads_wins_every_match() -> None:
    summary = Summary("a", "b", match_deals=3)
    summary.seated = [[(6, -2, -2, -2)] * 4] * 7
    figures = summary.matches(random.Random(0))
    assert figures == {"deals": 3, "played": 8, "won": 8, "bootstrap_rate": 1.0}
    summary.seated = [[(-6, 2, 2, 2)] * 4] * 7
    assert summary.matches(random.Random(0))["bootstrap_rate"] == 0.0


def test_matches_are_read_from_the_tables_where_a_sits() -> None:
    a, b = BotSpec.parse("basic"), BotSpec.parse("random")
    summary = Summary("basic", "random", match_deals=2)
    results = [play_duplicate(a, b, index, seed=4) for index in range(2)]
    for result in results:
        summary.add(result)
    won = 0
    for k in range(4):
        totals = [sum(r.tables[k].scores[s] for r in results) for s in range(4)]
        won += totals[k] > max(t for s, t in enumerate(totals) if s != k)
    assert summary.matches(random.Random(0))["won"] == won


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["arena", *argv, "--json"]) == 0
    figures: dict[str, Any] = json.loads(capsys.readouterr().out)
    return figures


def test_a_match_played_in_pieces_pools_to_the_whole_match(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    whole = run_json(capsys, "basic", "random", "--deals", "6", "--seed", "8")
    first = run_json(capsys, "basic", "random", "--deals", "4", "--seed", "8")
    rest = run_json(capsys, "basic", "random", "--deals", "2", "--seed", "8", "--first", "4")
    assert [i for i, _ in rest["per_deal"]] == [4, 5]
    assert first["per_deal"] + rest["per_deal"] == whole["per_deal"]
    pooled = pool([first, rest])
    assert (pooled["deals"], pooled["margin"], pooled["illegal"]) == (6, whole["margin"], 0)
    assert pooled["ci_low"] <= pooled["margin"] <= pooled["ci_high"]
    # The command reads the files that tarot arena --json wrote.
    paths = [tmp_path / "first.json", tmp_path / "rest.json"]
    for path, run in zip(paths, (first, rest), strict=True):
        path.write_text(json.dumps(run))
    assert main(["arena-pool", *map(str, paths), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == pooled


def test_runs_that_cannot_be_pooled_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run = run_json(capsys, "basic", "random", "--deals", "2", "--seed", "3")
    other = run_json(capsys, "expert", "random", "--deals", "2", "--seed", "3", "--first", "2")
    with pytest.raises(PoolError, match="not basic vs random"):
        pool([run, other])
    with pytest.raises(PoolError, match="deal 0 of seed 3 is in two runs"):
        pool([run, run])
    with pytest.raises(PoolError, match="per_deal"):
        pool([{k: v for k, v in run.items() if k != "per_deal"}])
    with pytest.raises(PoolError):
        pool([])
    # The command says why in one line and exits 2.
    bad = tmp_path / "bad.json"
    for text in ("{not json", "[1, 2]", json.dumps({"a": "basic", "b": "random"})):
        bad.write_text(text)
        assert main(["arena-pool", str(bad)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("tarot arena-pool: ") and err.count("\n") == 1
    assert main(["arena-pool", str(tmp_path / "missing.json")]) == 2
    assert "missing.json" in capsys.readouterr().err
