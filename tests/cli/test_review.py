"""``tarot review``: the JSON a process prints (worker processes included), the text, the
progress bar on a terminal only, --seats, --noise, and refusals with exit status 2."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cli.main import main

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests" / "records" / "seed_garde_made.json"
FIELDS = {"seat", "kind", "chosen", "best", "chosen_score", "best_score", "loss", "label"}
Capture = pytest.CaptureFixture[str]
PROGRESS_ARGS = ("--budget-ms", "1", "--workers", "1", "--seats", "0", "--json")


def tarot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=110,
        check=False,
    )


def test_json_review_in_two_worker_processes_has_every_decision_and_a_summary() -> None:
    done = tarot("review", str(RECORD), "--budget-ms", "3", "--workers", "2", "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # not a terminal: no progress bar
    result: dict[str, Any] = json.loads(done.stdout)
    decisions = result["decisions"]
    assert len(decisions) == 4 + 1 + 1 + 2 + 72  # bids, discard, chelem, two poignees, cards
    assert all(FIELDS <= set(e) for e in decisions)
    assert [e["chosen"] for e in decisions if e["kind"] == "card"] == json.loads(
        RECORD.read_text()
    )["plays"]
    assert set(result["summary"]) == {"0", "1", "2", "3"}
    assert sum(s["decisions"] for s in result["summary"].values()) == 80
    again = tarot("review", str(RECORD), "--budget-ms", "3", "--workers", "1", "--json")
    assert json.loads(again.stdout) == result  # one process or two: the same review


def test_text_review_names_each_decision_and_the_summary(capsys: Capture) -> None:
    status = main(["review", str(RECORD), "--budget-ms", "2", "--workers", "1", "--seats", "2"])
    out = capsys.readouterr()
    assert status == 0 and out.err == ""
    lines = out.out.splitlines()
    assert lines[0].startswith("review at 2 ms per decision, seed 0")
    assert any("seat 2 discard" in line for line in lines)
    assert not any(" seat 0 " in line for line in lines)
    assert lines[-1].startswith("  seat 2: 22 decisions, average loss")


def test_progress_bar_is_drawn_on_a_terminal() -> None:
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "cli.main", "review", str(RECORD), *PROGRESS_ARGS],
            stdout=subprocess.PIPE,
            stderr=follower,
            cwd=ROOT,
            timeout=110,
            check=False,
        )
        os.close(follower)
        follower = -1
        drawn = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO once the terminal's other end is closed
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        if follower >= 0:
            os.close(follower)
        os.close(leader)
    assert done.returncode == 0
    text = drawn.decode()
    assert "\rreviewing [" in text and "] 19/19 decisions" in text
    assert f"[{'#' * 30}] 19/19 decisions" in text
    assert json.loads(done.stdout)["summary"]["0"]["decisions"] == 19


def test_noise_compares_two_seeds_over_several_records(tmp_path: Path, capsys: Capture) -> None:
    other = tmp_path / "other.json"
    other.write_text((ROOT / "tests" / "records" / "prise_made.json").read_text())
    args = ["review", str(RECORD), str(other), "--budget-ms", "1", "--workers", "1"]
    status = main([*args, "--seats", "1", "--noise", "5", "--json"])
    figures = json.loads(capsys.readouterr().out)
    assert status == 0
    assert figures["seeds"] == [0, 5] and figures["decisions"] > 20
    assert 0 <= figures["loss_gap"]["median"] <= figures["loss_gap"]["p99"]
    assert figures["loss_gap"]["p99"] <= figures["loss_gap_max"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["review", "missing.json"], "tarot review: cannot read missing.json"),
        (["review", str(RECORD), str(RECORD)], "tarot review: one RECORD at a time"),
    ],
)
def test_refusals_exit_2_with_one_line(args: list[str], message: str) -> None:
    done = tarot(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1


def test_an_unfinished_record_is_refused(tmp_path: Path) -> None:
    record = json.loads(RECORD.read_text())
    record["plays"] = record["plays"][:-3]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(record))
    done = tarot("review", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "tarot review: plays[69]: the record ends before the deal is over\n"


@pytest.mark.parametrize("budget", ["0", "-5", "nan", "70000", "fast"])
def test_a_bad_budget_is_a_usage_error(budget: str) -> None:
    done = tarot("review", str(RECORD), "--budget-ms", budget)
    assert done.returncode == 2 and "--budget-ms" in done.stderr


def test_bench_review_measures_tables_and_reviews_each_alone_and_together(
    capsys: Capture,
) -> None:
    """A real node, real bench tables, real reviewers; figures only (no timing asserted)."""
    args = ["bench", "review", "--tables", "2", "--seconds", "1", "--rounds", "1"]
    status = main([*args, "--think-ms", "20", "--reviewers", "1", "--json"])
    figures = json.loads(capsys.readouterr().out)
    assert status == 0
    (one,) = figures["rounds"]
    assert one["alone"]["actions"] > 0 and one["reviewing"]["actions"] > 0
    # Reviews ran in the idle node's run and alongside the tables, and were measured in both.
    idle, busy = one["idle"]["reviews"], one["reviewing"]["reviews"]
    assert idle["decisions"] > 0 and busy["decisions"] > 0
    assert 0 < idle["decision_p50_ms"] <= idle["decision_p99_ms"]
    tables, reviews = figures["tables"], figures["reviews"]
    assert tables["ratio_p99"] == round(one["reviewing"]["p99_ms"] / one["alone"]["p99_ms"], 2)
    ratio = round(busy["decision_p99_ms"] / idle["decision_p99_ms"], 2)
    assert reviews["ratio_p99"] == ratio
    assert reviews["idle"]["decisions"] == idle["decisions"]
    # The node's own figures over each run's measured seconds: what a p99 is read beside.
    for run in ("idle", "alone", "reviewing"):
        node = one[run]["node"]
        assert node["loop_pings"] > 0 and node["loop_p50_ms"] <= node["loop_longest_ms"]
        assert len(node["gc_collections_by_generation"]) == 3 and node["cpu_share"] >= 0
        assert node["loop_cpu_wait_share"] >= 0
        assert sum(node["gc_collections_by_generation"]) == node["gc_pauses"]
        assert figures["node"][run]["loop_pings"] == node["loop_pings"]
