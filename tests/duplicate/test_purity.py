"""``server.duplicate`` is sans-I/O: the standard library and the engine, nothing else."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "server" / "duplicate"
# Not ``time``: ``datetime`` imports it, and an event's window is datetimes; nor ``random``:
# the engine imports it for the generators handed in. That no clock is read and no
# randomness drawn is checked on the sources instead.
FORBIDDEN = ["asyncio", "redis", "sqlalchemy", "aiosqlite", "asyncpg", "websockets", "pydantic"]
FORBIDDEN += ["socket", "threading"]
CLOCKS = {"now", "utcnow", "today", "time", "monotonic", "perf_counter", "time_ns"}

# A bare interpreter (-S: no site-packages, so any third-party import fails) imports every
# module of the package; modules the interpreter preloads are dropped first, so that an
# import of one by the package brings it back.
PROBE = """
import importlib, json, pkgutil, sys
sys.path.insert(0, {root!r})
forbidden = {forbidden!r}
for name in forbidden:
    sys.modules.pop(name, None)
import server.duplicate
{extra}
for module in pkgutil.iter_modules(server.duplicate.__path__):
    importlib.import_module("server.duplicate." + module.name)
print(json.dumps(sorted(n for n in sys.modules if n.split(".")[0] in forbidden)))
"""


def _probe(extra: str = "") -> subprocess.CompletedProcess[str]:
    code = PROBE.format(root=str(ROOT), forbidden=FORBIDDEN, extra=extra)
    return subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True)


def test_the_duplicate_package_imports_no_io_and_no_third_party() -> None:
    result = _probe()
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []


def test_the_probe_would_notice_a_forbidden_import() -> None:
    result = _probe("import socket, threading")
    assert json.loads(result.stdout) == ["socket", "threading"]


def _called_names(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            function = node.func
            if isinstance(function, ast.Attribute):
                names.add(function.attr)
            elif isinstance(function, ast.Name):
                names.add(function.id)
    return names


def test_the_duplicate_package_reads_no_clock_and_draws_no_randomness() -> None:
    sources = sorted(PACKAGE.glob("*.py"))
    assert len(sources) >= 6
    for path in sources:
        assert not _called_names(path) & CLOCKS, path.name
        assert "import random" not in path.read_text() and "secrets" not in path.read_text()
