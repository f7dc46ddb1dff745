"""The files the front documents name exist, and the README links every document.

README.md, docs/BENCHMARKS.md and docs/REVIEW.md point a newcomer at files: a
module, a results folder, a JSON a figure comes from. When code moves (issue
26 moved ``server/`` into sub-packages), a stale path fails here instead of
sending the reader nowhere. A path is any word that starts with a tracked
top-level folder (``server/...``, ``docs/results/...``; ``*`` and ``{a,b}``
globs must match something); a Markdown link's target is resolved from the
document's folder.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = ("README.md", "docs/BENCHMARKS.md", "docs/REVIEW.md")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _top_folders() -> set[str]:
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return {name.split("/")[0] for name in tracked if "/" in name and not name.startswith(".")}


def _paths(text: str) -> set[str]:
    folders = "|".join(sorted(map(re.escape, _top_folders())))
    word = re.compile(rf"(?<![\w./:-])((?:{folders})/[\w./*{{}},-]*)")
    return {found.rstrip(".,") for found in word.findall(text)}


def _exists(path: str) -> bool:
    if "{" in path:  # one brace group, as the results' READMEs write them: a-{1,2,3}.json
        head, rest = path.split("{", 1)
        choices, tail = rest.split("}", 1)
        return all(_exists(f"{head}{choice}{tail}") for choice in choices.split(","))
    if "*" in path:
        return any(ROOT.glob(path))
    return (ROOT / path).exists()


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_path_a_document_names_exists(document: str) -> None:
    text = (ROOT / document).read_text()
    missing = sorted(path for path in _paths(text) if not _exists(path))
    assert not missing, missing


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_link_of_a_document_leads_to_a_file(document: str) -> None:
    folder = (ROOT / document).parent
    targets = [t for t in LINK.findall((ROOT / document).read_text()) if "://" not in t]
    missing = [t for t in targets if not (folder / t).exists()]
    assert not missing, missing


def test_the_readme_links_every_document() -> None:
    linked = set(LINK.findall((ROOT / "README.md").read_text()))
    documents = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    assert documents <= linked, documents - linked
