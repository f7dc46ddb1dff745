"""docs/DUPLICATE.md's worked example is what the code computes, cell by cell."""

from __future__ import annotations

import re
from pathlib import Path

from server.duplicate import score_event

from .worked_example import ENTRANTS, RESULTS, SCORES

DOC = Path(__file__).resolve().parents[2] / "docs" / "DUPLICATE.md"
CELL = re.compile(r"^(-?\d+)(?: \(passed out\))?: (\d+) of (\d+), \*\*([\d.]+)%\*\*$")


def _table() -> list[list[str]]:
    section = DOC.read_text().split("### Worked example")[1].split("\n### ")[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


def test_the_worked_example_table_is_what_the_code_computes() -> None:
    header, _rule, *deals, standing = _table()
    assert header == ["deal", *ENTRANTS]
    scores = score_event(RESULTS, ENTRANTS, deals=len(SCORES))
    marks = {(r.entrant, r.deal): (r.score, r.field, r.mark) for r in scores.results()}
    for row in deals:
        deal = int(row[0])
        for name, cell in zip(ENTRANTS, row[1:], strict=True):
            if (name, deal) not in marks:
                assert cell == "not played: **0%**"
                continue
            found = CELL.match(cell)
            assert found, cell
            score, field, mark = marks[name, deal]
            points = mark * 2 * (field - 1) / 100
            assert (int(found[1]), int(found[2]), int(found[3])) == (score, points, 2 * (field - 1))
            assert float(found[4]) == round(mark, 2)
    by_name = {s.entrant: s for s in scores.standings}
    ordinals = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
    for name, cell in zip(ENTRANTS, standing[1:], strict=True):
        expected = f"**{round(float(by_name[name].mark), 2)}%**, {ordinals[by_name[name].rank]}"
        assert cell == expected
