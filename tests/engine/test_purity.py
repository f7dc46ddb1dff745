"""The engine is pure: standard library only, no I/O, no clock, no global random (STYLE.md)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
FORBIDDEN = ["asyncio", "websockets", "redis", "pydantic", "time", "socket", "threading"]

# Imports every engine module in a bare interpreter (-S: no site-packages at all, so a
# third-party import fails). Modules the interpreter preloads (``time``) are dropped
# from ``sys.modules`` first: an import of one of them by the engine would bring it back.
PROBE = """
import importlib, json, pkgutil, sys
sys.path.insert(0, {root!r})
forbidden = {forbidden!r}
for name in forbidden:
    sys.modules.pop(name, None)
import engine
for module in pkgutil.iter_modules(engine.__path__):
    importlib.import_module("engine." + module.name)
print(json.dumps(sorted(n for n in sys.modules if n.split(".")[0] in forbidden)))
"""


def test_engine_imports_no_io_no_clock_no_third_party() -> None:
    code = PROBE.format(root=str(ROOT), forbidden=FORBIDDEN)
    result = subprocess.run(
        [sys.executable, "-S", "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []


def test_the_probe_would_notice_a_forbidden_import() -> None:
    code = PROBE.format(root=str(ROOT), forbidden=FORBIDDEN).replace(
        "import engine\n", "import engine, socket, time\n"
    )
    result = subprocess.run(
        [sys.executable, "-S", "-c", code], capture_output=True, text=True, check=False
    )
    assert json.loads(result.stdout) == ["socket", "time"]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_engine_sources_import_only_the_standard_library() -> None:
    allowed = {"__future__", "collections", "dataclasses", "enum", "json", "random", "typing"}
    for path in sorted(ENGINE.glob("*.py")):
        assert _imports(path) <= allowed, path.name
        assert not {"time", "socket", "asyncio", "os", "datetime"} & _imports(path)


def test_engine_uses_no_global_random() -> None:
    # randomness is handed in: ``random`` may only be used to name or build a Random
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id == "random":
                    assert node.attr == "Random", f"{path.name}: random.{node.attr}"
