"""Golden records: ``tarot score`` on each record prints its hand-made sheet (README.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli.main import main
from engine import load_record
from tests.engine.oracle import score_record

from .make_records import CANCELLED, CASES, build

HERE = Path(__file__).parent
NAMES = sorted(p.name.removesuffix(".sheet.json") for p in HERE.glob("*.sheet.json"))
RECORD_FIELDS = {
    *("format", "dealer", "hands", "chien", "bids"),
    *("discard", "chelem", "poignees", "plays"),
}

# Who wins each trick, worked out by hand in README.md ("T" the taker, "D" a
# defender), so that a sheet cannot come out right for the wrong reason (two
# misjudged tricks whose points cancel). The sheets do not carry trick winners
# (docs/RECORD.md fixes their fields), hence this table beside them.
LADDER = "T" * 10 + "D" * 8  # T12..T21 win tricks 1-10, D1 trumps trick 11, hearts lose
TRICK_WINNERS = {
    **dict.fromkeys(
        (
            *("seed_garde_made", "prise_made", "prise_failed", "garde_failed"),
            *("garde_sans_made", "garde_sans_failed", "garde_contre_made"),
            *("garde_contre_failed", "chelem_announced_failed", "poignee_taker_made"),
            *("poignee_defender_taker_made", "poignee_taker_failed"),
            *("excuse_compensation", "excuse_last_trick_half_point"),
        ),
        LADDER,
    ),
    "petit_au_bout_taker": "D" + "T" * 17,  # 8H trumped, then T12 overtrumps T3
    "petit_au_bout_defence": "T" * 9 + "D" * 9,  # T11 trumps 1H; D1 keeps T1 for last
    "poignee_excuse": "T" * 9 + "D" * 9,  # the led Excuse loses to T10
    "r9_four_kings_triple": "T" * 18,
    "chelem_unannounced": "T" * 18,
    "chelem_announced_excuse_led": "T" * 18,
    "chelem_announced_defence_sweep": "D" * 18,
}


def load(name: str, suffix: str = ".json") -> Any:
    return json.loads((HERE / f"{name}{suffix}").read_text())


def comparable(key: str, value: Any) -> Any:
    if key == "bonuses":
        return sorted((b["kind"], b["side"], b["points"]) for b in value)
    return value


def test_every_record_has_its_sheet() -> None:
    records = {p.stem for p in HERE.glob("*.json") if not p.name.endswith(".sheet.json")}
    assert records == set(NAMES) and len(NAMES) >= 23


@pytest.mark.parametrize("name", NAMES)
def test_tarot_score_prints_the_hand_made_sheet(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["score", str(HERE / f"{name}.json")])
    out = capsys.readouterr()
    assert (status, out.err) == (0, "")
    assert out.out.count("\n") == 1
    got = json.loads(out.out)
    expected = load(name, ".sheet.json")
    for key, value in expected.items():
        assert comparable(key, got[key]) == comparable(key, value), key
    assert sum(got["scores"]) == 0


@pytest.mark.parametrize("name", NAMES)
def test_the_independent_scorer_agrees_with_the_sheet(name: str) -> None:
    mine = score_record(load(name))
    expected = load(name, ".sheet.json")
    for key in expected.keys() & mine.keys():
        assert mine[key] == expected[key], key


@pytest.mark.parametrize("name", NAMES)
def test_record_is_a_tarot_record_1(name: str) -> None:
    record = load(name)
    assert record["format"] == "tarot-record/1"
    assert set(record) <= RECORD_FIELDS
    assert [len(hand) for hand in record["hands"]] == [18, 18, 18, 18]
    assert len(record["chien"]) == 6
    cards = [c for hand in record["hands"] for c in hand] + record["chien"]
    assert len(set(cards)) == 78
    sheet = load(name, ".sheet.json")
    if sheet["status"] == "cancelled":
        assert set(record) == {"format", "dealer", "hands", "chien", "bids"}
        assert record["bids"] == ([] if sheet["reason"] == "petit_sec" else ["pass"] * 4)
    else:
        assert len(record["bids"]) == 4 and len(record["plays"]) == 72
        held = [c for hand in record["hands"] for c in hand]
        if "discard" in record:
            held = [c for c in held + record["chien"] if c not in record["discard"]]
        assert sorted(record["plays"]) == sorted(held)
        assert ("discard" in record) == (sheet["contract"] in ("prise", "garde"))


def test_every_played_record_has_its_hand_worked_trick_winners() -> None:
    played = {n for n in NAMES if load(n, ".sheet.json")["status"] == "played"}
    assert played == set(TRICK_WINNERS)


@pytest.mark.parametrize("name", sorted(TRICK_WINNERS))
def test_tricks_fall_as_worked_out_by_hand(name: str) -> None:
    deal = load_record(load(name))
    won = "".join("T" if t.winner == deal.taker else "D" for t in deal.tricks)
    assert won == TRICK_WINNERS[name]


def test_records_are_what_make_records_writes() -> None:
    for name, case in CASES.items():
        assert build(case) == load(name), name
    for name, record in CANCELLED.items():
        assert record == load(name), name


def test_the_required_cases_are_all_here() -> None:
    sheets = {name: load(name, ".sheet.json") for name in NAMES}
    played = [s for s in sheets.values() if s["status"] == "played"]
    for contract in ("prise", "garde", "garde_sans", "garde_contre"):
        outcomes = {s["made"] for s in played if s["contract"] == contract}
        assert outcomes == {True, False}, contract
    sides = {(b["kind"], b["side"]) for s in played for b in s["bonuses"]}
    for kind in ("petit_au_bout", "poignee", "chelem"):
        assert {(kind, "taker"), (kind, "defence")} <= sides, kind
    assert {s["reason"] for s in sheets.values() if s["status"] == "cancelled"} == {
        "petit_sec",
        "all_pass",
    }
    assert any(s["scores"][0] % 1 == 0.5 for s in played)
    assert sorted(sheets["seed_garde_made"]["scores"]) == [-58, -58, -58, 174]
