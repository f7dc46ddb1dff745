"""``tarot simulate``: random legal deals, a summary that matches the records written."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from cli.main import main
from engine import load_record, score


def simulate(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["simulate", *args]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    text: str = out.out
    return text


def test_records_written_replay_and_match_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = simulate(capsys, "--deals", "24", "--seed", "11", "--out", str(tmp_path))
    files = sorted(tmp_path.glob("deal-*.json"))
    assert [f.name for f in files] == [f"deal-{i:05d}.json" for i in range(1, 25)]
    sheets = []
    for i, path in enumerate(files):
        record = json.loads(path.read_text())
        assert record["dealer"] == i % 4  # the deal passes to the right (R1)
        sheets.append(score(load_record(record)))
    cancelled = [s for s in sheets if s.status == "cancelled"]
    played = [s for s in sheets if s.status == "played"]
    lines = out.splitlines()
    assert lines[0].startswith(f"24 deals, {len(cancelled)} cancelled")
    taken = Counter(s.contract.code for s in played)
    made = Counter(s.contract.code for s in played if s.made)
    for code, count in taken.items():
        row = next(line for line in lines if line.strip().startswith(code + " "))
        numbers = [int(n) for n in re.findall(r"\b\d+\b", row)]
        assert numbers[:2] == [count, made[code]], row
    averages = [float(x) for x in re.findall(r"seat \d: ([+-][\d.]+)", lines[-1])]
    expected = [sum(s.scores[seat] for s in played) / 24 for seat in range(4)]
    assert averages == pytest.approx(expected, abs=0.006)
    assert sum(averages) == pytest.approx(0, abs=0.03)


def test_same_seed_same_deals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second, other = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    out_a = simulate(capsys, "--deals", "5", "--seed", "3", "--out", str(first))
    out_b = simulate(capsys, "--deals", "5", "--seed", "3", "--out", str(second))
    simulate(capsys, "--deals", "5", "--seed", "4", "--out", str(other))
    assert out_a == out_b

    def texts(folder: Path) -> list[str]:
        return [p.read_text() for p in sorted(folder.glob("*.json"))]

    assert texts(first) == texts(second) != texts(other)


def test_one_deal_is_told_move_by_move(capsys: pytest.CaptureFixture[str]) -> None:
    out = simulate(capsys, "--deals", "1", "--seed", "2")
    lines = out.splitlines()
    assert lines[0] == "deal: seat 0 deals"
    assert [line.split(":")[0].strip() for line in lines[1:5]] == [f"seat {s}" for s in range(4)]
    assert sum(line.startswith("seat ") and " bids " in line for line in lines) == 4
    tricks = [line for line in lines if line.startswith("trick ")]
    assert [t.split(":")[0] for t in tricks] == [f"trick {n}" for n in range(1, 19)]
    assert sum(line.startswith("  seat ") and " plays " in line for line in lines) == 72
    sheet = json.loads(out[out.index("{") : out.rindex("}") + 1])
    assert sum(sheet["scores"]) == 0
    assert lines[-1].startswith("average score per deal: seat 0: ")


def test_at_least_one_deal(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--deals", "0"])
    assert exit_info.value.code == 2
    assert "must be at least 1" in capsys.readouterr().err
