"""docs/RULES.md and docs/RECORD.md are in the repository, complete, and what the code cites.

The rulings and formats the code follows must be readable from a clone: every
ruling R1-R20 is written out once, in order; every field of a record and every
key of a score sheet the engine writes is described; and every file that cites
RULES.md or RECORD.md points at these two.
"""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest

from engine import RECORD_FIELDS, apply, load_record, new_deal, random_action, score, to_record

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "RULES.md"
RECORD = ROOT / "docs" / "RECORD.md"
CITES = re.compile(r"(\S*?)\b(RULES|RECORD)\.md")


def test_every_ruling_is_written_out_once_in_order() -> None:
    rulings = re.findall(r"^\*\*(R\d+) — ", RULES.read_text(), flags=re.M)
    assert rulings == [f"R{n}" for n in range(1, 21)]


def test_each_ruling_names_the_seed_rules_it_settles() -> None:
    for paragraph in re.findall(r"^\*\*R\d+ — [^*]+\*\* \(([^)]*)", RULES.read_text(), re.M):
        assert paragraph.startswith("seed "), paragraph


def test_every_ruling_the_engine_cites_is_written_out() -> None:
    written = set(re.findall(r"^\*\*(R\d+) — ", RULES.read_text(), flags=re.M))
    engine = "".join(p.read_text() for p in (ROOT / "engine").glob("*.py"))
    cited = set(re.findall(r"\b(R\d+)\b", engine))
    assert cited and cited <= written


def test_record_fields_are_described() -> None:
    text = RECORD.read_text()
    for field in RECORD_FIELDS:
        assert f"| `{field}` |" in text, field


@pytest.mark.parametrize("seed", range(8))
def test_score_sheet_keys_are_described(seed: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(seed % 4, rng)
    while not deal.is_over:
        deal = apply(deal, random_action(deal, rng))
    sheet = score(load_record(to_record(deal))).to_json()
    section = RECORD.read_text().split("## The score sheet")[1]
    for key in sheet:
        assert f"| `{key}` |" in section, key
    for bonus in sheet.get("bonuses", []):
        for key in bonus:
            assert f'"{key}"' in section or f"`{key}`" in section, key


def test_every_citation_points_into_docs() -> None:
    files = subprocess.run(
        ["git", "ls-files", "*.py", "*.md", "*.js", "*.html"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    wrong = []
    for name in files:
        path = ROOT / name
        if not path.exists() or path == Path(__file__).resolve():
            continue
        for line_number, line in enumerate(path.read_text().splitlines(), 1):
            for prefix, doc in CITES.findall(line):
                if not _points_into_docs(path, prefix, doc):
                    wrong.append(f"{name}:{line_number}: {line.strip()}")
    assert not wrong, "\n".join(wrong)


def _points_into_docs(path: Path, prefix: str, doc: str) -> bool:
    """``docs/RULES.md``, or a Markdown link whose target is docs/RULES.md (its text,
    ``[RULES.md]``, is allowed: the target is checked as a citation of its own)."""
    if prefix.endswith(("docs/", "[")):
        return True
    link = re.match(r".*\]\((.*)$", prefix)
    if link is not None:
        return (path.parent / f"{link.group(1)}{doc}.md").resolve() == ROOT / "docs" / f"{doc}.md"
    return path.parent == ROOT / "docs" and prefix == ""
