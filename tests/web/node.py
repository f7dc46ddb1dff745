"""Running the browser client's JavaScript checks: Node's test runner, and tsc."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TSC = ROOT / "node_modules" / ".bin" / "tsc"  # package.json; tasks.py runs npm ci


def node_test(path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``node --test`` on one file, from the project's root (package.json: ES modules)."""
    binary = shutil.which("node")
    assert binary is not None, "the browser client's checks need node (tasks.py installs it)"
    return subprocess.run(
        [binary, "--test", str(path)],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
