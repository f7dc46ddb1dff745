"""``tarot score``: sheets, JSON Lines for several files, ``-`` for stdin, and refusals:
exit status 1, nothing on stdout, one line on stderr naming the step and the rule."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cli.main import main

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "tests" / "records"
Capture = pytest.CaptureFixture[str]


def record(name: str = "seed_garde_made") -> dict[str, Any]:
    """A golden record (seed: dealer 1, seat 2 takes a garde; see tests/records/README.md)."""
    data: dict[str, Any] = json.loads((RECORDS / f"{name}.json").read_text())
    return data


def score_text(tmp_path: Path, capsys: Capture, text: str) -> tuple[int, str, str]:
    path = tmp_path / "record.json"
    path.write_text(text)
    status = main(["score", str(path)])
    out = capsys.readouterr()
    return status, out.out, out.err


def refused(tmp_path: Path, capsys: Capture, value: Any) -> str:
    """Score a bad record: exit 1, empty stdout, exactly one line on stderr; return it."""
    text = value if isinstance(value, str) else json.dumps(value)
    status, out, err = score_text(tmp_path, capsys, text)
    assert (status, out) == (1, "")
    assert err.endswith("\n") and err.count("\n") == 1 and "Traceback" not in err
    return err.rstrip("\n")


def changed(name: str = "seed_garde_made", **fields: Any) -> dict[str, Any]:
    rec = copy.deepcopy(record(name))
    rec.update(fields)
    return rec


def with_play(name: str, index: int, code: str) -> dict[str, Any]:
    rec = record(name)
    rec["plays"][index] = code
    return rec


def test_score_prints_one_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = score_text(tmp_path, capsys, json.dumps(record()))
    assert (status, err) == (0, "")
    sheet = json.loads(out)
    assert sheet["scores"] == [-58, -58, 174, -58] and sheet["status"] == "played"


# The refusals of docs/RECORD.md, each with its exact line ----------------------------------------


def test_invalid_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(tmp_path, capsys, '{"format": "tarot-record/1",')
    assert line.startswith("not valid JSON: ")
    assert refused(tmp_path, capsys, "[" * 100_000).startswith("not valid JSON: ")
    assert refused(tmp_path, capsys, "").startswith("not valid JSON: ")


def test_not_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(tmp_path, capsys, []) == "a record must be a JSON object"
    assert refused(tmp_path, capsys, changed(format="tarot-record/2")) == (
        "format must be 'tarot-record/1', not 'tarot-record/2'"
    )
    assert refused(tmp_path, capsys, changed(dealer=4)) == "dealer must be a seat 0-3, not 4"
    assert refused(tmp_path, capsys, changed(score=3)) == "unknown field 'score'"
    assert refused(tmp_path, capsys, changed(chelem="no")) == "chelem must be true or false"


def test_unknown_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = record()
    rec["hands"][1][3] = "ZZ"
    assert refused(tmp_path, capsys, rec) == "hands[1][3]: unknown card 'ZZ'"
    assert refused(tmp_path, capsys, with_play("seed_garde_made", 9, "T22")) == (
        "plays[9]: unknown card 'T22'"
    )


def test_duplicate_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = record()
    rec["hands"][2][0] = rec["hands"][0][0]
    assert refused(tmp_path, capsys, rec) == f"hands[2]: {rec['hands'][0][0]} dealt twice (R2)"
    rec = record()
    rec["chien"][0] = rec["hands"][3][5]
    assert refused(tmp_path, capsys, rec) == f"chien: {rec['hands'][3][5]} dealt twice (R2)"


def test_missing_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = record()
    rec["hands"][0] = rec["hands"][0][:-1]
    assert refused(tmp_path, capsys, rec) == "hands[0]: 17 cards, not 18 (R2)"
    rec = record()
    rec["chien"] = rec["chien"][:5]
    assert refused(tmp_path, capsys, rec) == "chien: 5 cards, not 6 (R2)"


def test_illegal_bid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(tmp_path, capsys, changed(bids=["garde", "prise", "pass", "pass"]))
    assert line == "bids[1]: seat 3 bid prise but must pass or bid above garde (R5)"
    line = refused(tmp_path, capsys, changed(bids=["garde", "surcontre", "pass", "pass"]))
    assert line == "bids[1]: unknown bid 'surcontre'"
    line = refused(tmp_path, capsys, changed(bids=["Garde", "pass", "pass", "pass"]))
    assert line == "bids[0]: unknown bid 'Garde'"
    line = refused(tmp_path, capsys, changed(bids=["garde", 2, "pass", "pass"]))
    assert line == "bids[1]: unknown bid 2"


def test_illegal_discard(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(tmp_path, capsys, changed(discard=["KH", "1H", "2H", "3H", "4H", "JH"]))
    assert line == "discard: seat 2 discarded KH: no king may be discarded (R6)"
    line = refused(tmp_path, capsys, changed(discard=["T12", "1H", "2H", "3H", "4H", "JH"]))
    assert line.startswith("discard: seat 2 discarded T12 but must discard ordinary cards first")
    assert line.endswith("(R6)")
    line = refused(tmp_path, capsys, changed(discard=["1H", "1H", "2H", "3H", "4H", "JH"]))
    assert line == "discard: 1H listed twice"


def test_discard_missing_or_not_allowed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = record()
    del rec["discard"]
    assert refused(tmp_path, capsys, rec) == "discard: missing for garde (R6)"
    rec = changed("garde_sans_made", discard=["1S", "2S", "3S", "4S", "5S", "6S"])
    line = refused(tmp_path, capsys, rec)
    assert line == "discard: not allowed here (garde_sans has no discard) (R7)"


def test_illegal_play_must_follow(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # trick 12: seat 3 leads 8D; seat 1 holds 7D and plays 9C
    line = refused(tmp_path, capsys, with_play("seed_garde_made", 46, "9C"))
    assert line == "plays[46]: seat 1 played 9C but must follow diamonds (R11)"
    # trick 1: the taker leads T12; seat 3 holds trumps and plays 8D
    line = refused(tmp_path, capsys, with_play("seed_garde_made", 1, "8D"))
    assert line == "plays[1]: seat 3 played 8D but must follow trumps (R11)"


def test_illegal_play_must_trump(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # trick 11: the taker leads 5H; seat 3, void in hearts, must trump
    line = refused(tmp_path, capsys, with_play("seed_garde_made", 41, "8D"))
    assert line == "plays[41]: seat 3 played 8D but must play a trump (R11)"


def test_illegal_play_must_overtrump(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # petit_au_bout_taker, trick 2: seat 3 leads T3; the taker (seat 2) must beat it
    line = refused(tmp_path, capsys, with_play("petit_au_bout_taker", 7, "T1"))
    assert line == "plays[7]: seat 2 played T1 but must overtrump T3 (R11)"


def test_illegal_play_card_not_in_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(tmp_path, capsys, with_play("seed_garde_made", 0, "1S"))
    assert line == "plays[0]: seat 2 played 1S, not in hand (R11)"


def test_poignee_invalid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nine = [f"T{n}" for n in range(12, 21)]
    line = refused(tmp_path, capsys, changed(poignees={"2": nine}))
    assert line == 'poignees["2"]: seat 2 showed 9 cards but a poignee is 10, 13 or 15 trumps (R8)'
    line = refused(tmp_path, capsys, changed(poignees={"2": [*nine, "KH"]}))
    assert line == 'poignees["2"]: seat 2 showed KH, not trumps it may show (R8)'
    line = refused(tmp_path, capsys, changed(poignees={"5": nine}))
    assert line == "poignees: '5' is not a seat (R8)"
    # seat 0 holds no trump: its poignee is refused when it would play its first card
    line = refused(tmp_path, capsys, changed(poignees={"0": [f"T{n}" for n in range(1, 11)]}))
    assert line.startswith('poignees["0"]: seat 0 showed T1') and line.endswith("(R8)")


def test_record_ending_early(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = record()
    rec["plays"] = rec["plays"][:40]
    assert refused(tmp_path, capsys, rec) == "plays[40]: the record ends before the deal is over"
    rec = {k: v for k, v in record().items() if k in ("format", "dealer", "hands", "chien")}
    rec["bids"] = ["garde", "pass", "pass"]
    assert refused(tmp_path, capsys, rec) == "bids[3]: missing, every seat bids once (R5)"
    rec["bids"] = []
    assert refused(tmp_path, capsys, rec) == "bids[0]: missing, every seat bids once (R5)"


def test_a_fifth_bid_breaks_R5(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for fifth in ("pass", "garde_contre"):
        rec = record()
        rec["bids"] = [*rec["bids"], fifth]
        line = refused(tmp_path, capsys, rec)
        assert line == "bids[4]: a fifth bid, but every seat bids once (R5)"


def test_extra_plays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = record()
    rec["plays"].append("KH")
    assert refused(tmp_path, capsys, rec) == "plays[72]: the deal is over after 72 cards (R2)"
    rec = record("cancelled_all_pass")
    rec["bids"].append("garde")
    line = refused(tmp_path, capsys, rec)
    assert line == "bids[4]: the deal is over (all pass); seat 1 cannot act (R4)"


def test_cancelled_deals_take_no_later_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = changed("cancelled_petit_sec", bids=["pass"])
    line = refused(tmp_path, capsys, rec)
    assert line == "bids[0]: the deal is over (petit sec); seat 3 cannot act (R3)"
    rec = changed("cancelled_all_pass", plays=["KH"])
    assert refused(tmp_path, capsys, rec) == "plays: not allowed here (all_pass) (R4)"


def test_unreadable_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status = main(["score", str(tmp_path / "nowhere.json")])
    out = capsys.readouterr()
    assert (status, out.out) == (1, "")
    assert out.err == f"cannot read {tmp_path / 'nowhere.json'}: No such file or directory\n"


# Several files: JSON Lines ------------------------------------------------------------------


def test_several_files_print_json_lines_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(with_play("seed_garde_made", 41, "8D")))
    names = [str(RECORDS / "seed_garde_made.json"), str(bad), str(RECORDS / "prise_made.json")]
    status = main(["score", *names])
    out = capsys.readouterr()
    assert status == 1 and out.err == ""
    lines = [json.loads(line) for line in out.out.splitlines()]
    assert [line["file"] for line in lines] == names
    assert lines[0]["scores"] == [-58, -58, 174, -58]
    assert lines[1] == {
        "file": str(bad),
        "error": "plays[41]: seat 3 played 8D but must play a trump (R11)",
    }
    assert lines[2]["scores"] == [-29, -29, -29, 87]


def test_several_good_files_exit_zero(capsys: pytest.CaptureFixture[str]) -> None:
    names = sorted(str(p) for p in RECORDS.glob("*.json") if not p.name.endswith(".sheet.json"))
    assert main(["score", *names]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(names) >= 23
    assert all("error" not in json.loads(line) for line in lines)


# The real command, stdin ----------------------------------------------------------------------


def tarot(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=60,
    )


def test_dash_reads_standard_input() -> None:
    result = tarot("score", "-", stdin=json.dumps(record()))
    assert (result.returncode, result.stderr) == (0, "")
    assert json.loads(result.stdout)["scores"] == [-58, -58, 174, -58]


def test_dash_among_several_files() -> None:
    bad = json.dumps(with_play("seed_garde_made", 46, "9C"))
    result = tarot("score", str(RECORDS / "prise_made.json"), "-", stdin=bad)
    assert result.returncode == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[1] == {
        "file": "-",
        "error": "plays[46]: seat 1 played 9C but must follow diamonds (R11)",
    }


def test_standard_input_that_is_not_utf8() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cli.main", "score", "-"],
        input=b"\xff\xfe{}",
        capture_output=True,
        cwd=ROOT,
        check=False,
        timeout=60,
    )
    assert (result.returncode, result.stdout) == (1, b"")
    assert result.stderr.decode().startswith("cannot read -: 'utf-8' codec can't decode")
    assert result.stderr.count(b"\n") == 1


@pytest.mark.parametrize(
    "stdin",
    [
        *("", "null", "\x00\x01", '{"hands": 3}', "1e999"),
        '{"format": "tarot-record/1", "dealer": true}',
    ],
)
def test_never_a_traceback(stdin: str) -> None:
    result = tarot("score", "-", stdin=stdin)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
