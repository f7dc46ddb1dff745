"""The README's "Where things live" table: every folder a newcomer must find, and real files.

Each row is a folder, what it holds and its main files (named relative to the
folder). Every top-level folder of the repository has a row, and so does every
sub-package of ``server/`` (its layers: table, store, node, net, history); a
row names only folders and files that exist.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDER_CELL = re.compile(r"^\| `([\w./-]+/)` \| [^|]+ \| ([^|]+) \|$", re.M)


def _section(title: str) -> str:
    return (ROOT / "README.md").read_text().split(f"\n## {title}\n")[1].split("\n## ")[0]


def _rows() -> dict[str, str]:
    """Folder (with its trailing slash) -> its main-files cell."""
    return dict(FOLDER_CELL.findall(_section("Where things live")))


def _tracked() -> list[str]:
    return subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()


def test_every_top_level_folder_has_a_row() -> None:
    folders = {f"{name.split('/')[0]}/" for name in _tracked() if "/" in name}
    visible = {folder for folder in folders if not folder.startswith(".")}
    assert visible <= set(_rows()), visible - set(_rows())


def test_every_server_layer_has_a_row() -> None:
    packages = {f"{p.parent.relative_to(ROOT)}/" for p in (ROOT / "server").glob("*/__init__.py")}
    assert packages, "server/ has sub-packages"
    assert packages <= set(_rows()), packages - set(_rows())


def test_every_row_names_a_folder_and_its_files_that_exist() -> None:
    missing = []
    for folder, files in _rows().items():
        if not (ROOT / folder).is_dir():
            missing.append(folder)
        for name in re.findall(r"`([\w./-]+)`", files):
            if "." in name or name.endswith("/"):  # a file or a folder, not a command
                if not (ROOT / folder / name).exists():
                    missing.append(f"{folder}{name}")
    assert not missing, missing
