"""``tarot bench duplicate``: a smoke test of its output (figures, no timing assertions)."""

from __future__ import annotations

import json

import pytest

from cli.main import main


def test_bench_duplicate_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "duplicate", "--json", "--entrants", "40", "--deals", "3", "--pool", "5"]
    assert main([*argv, "--runs", "2"]) == 0
    out = capsys.readouterr()
    assert out.err == "" and out.out.count("\n") == 1
    figures = json.loads(out.out)
    assert (figures["entrants"], figures["deals"], figures["results"]) == (40, 3, 120)
    assert figures["score_s"] >= 0 and len(figures["score_s_runs"]) == 2
    # An entry is its row and one result per deal; it takes some bytes on disk.
    assert figures["backend"] == "sqlite" and figures["rows_per_entry"] == 4
    assert figures["bytes_per_entry"] > 0 and figures["close_s"] > 0
    assert figures["record_ms_p50"] > 0 and figures["standings_page_ms"] > 0


def test_bench_duplicate_text_without_the_database(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "duplicate", "--no-db", "--entrants", "20", "--deals", "2", "--pool", "3"]
    assert main([*argv, "--runs", "1"]) == 0
    text = capsys.readouterr().out
    assert "score_s: " in text and "results: 40" in text and "bytes_per_entry" not in text
