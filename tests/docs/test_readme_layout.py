"""The README's layout table ("What is here") lists exactly the project's folders."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_layout_table_matches_the_tree() -> None:
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    folders = {name.split("/")[0] for name in listed if "/" in name and not name.startswith(".")}
    section = (ROOT / "README.md").read_text().split("## What is here")[1].split("\n## ")[0]
    rows = set(re.findall(r"^\| `([\w.-]+)/` \|", section, flags=re.M))
    assert rows == folders
