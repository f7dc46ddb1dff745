"""``tarot bench engine``: a smoke test of its output (figures, no timing assertions)."""

from __future__ import annotations

import json

import pytest

from cli.main import main


def test_bench_engine_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--json", "--deals", "50", "--runs", "1"]) == 0
    out = capsys.readouterr()
    assert out.err == "" and out.out.count("\n") == 1
    figures = json.loads(out.out)
    assert figures["deals_per_second"] > 0 and figures["us_per_play"] > 0
    assert (figures["runs"], figures["deals_per_run"]) == (1, 50)


def test_bench_engine_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--deals", "20", "--runs", "1"]) == 0
    line = capsys.readouterr().out
    assert line.startswith("engine: ") and "complete deals/s" in line and "us per card play" in line
