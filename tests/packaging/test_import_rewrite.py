"""The build backend's import rewrite (build_backend/namespaced_wheel.py), statement by
statement: every absolute import of a project package goes under ``cardavia_tarot`` and
binds the same names; nothing else in the source moves."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def backend() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "namespaced_wheel", ROOT / "build_backend" / "namespaced_wheel.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("written", "rewritten"),
    [
        ("import engine\n", "from cardavia_tarot import engine\n"),
        ("import engine as e\n", "from cardavia_tarot import engine as e\n"),
        ("import engine.cards as c\n", "import cardavia_tarot.engine.cards as c\n"),
        (
            "import engine.cards\n",
            "import cardavia_tarot.engine.cards; from cardavia_tarot import engine\n",
        ),
        ("from server.app import App\n", "from cardavia_tarot.server.app import App\n"),
        (
            "from protocol import (\n    a,\n    b,\n)\n",
            "from cardavia_tarot.protocol import (\n    a,\n    b,\n)\n",
        ),
        (
            "def f():\n    if x:\n        from ai import basic  # later\n",
            "def f():\n    if x:\n        from cardavia_tarot.ai import basic  # later\n",
        ),
        ("x = 1; import cli\n", "x = 1; from cardavia_tarot import cli\n"),
        (
            "import clients, engine\n",
            "from cardavia_tarot import clients; from cardavia_tarot import engine\n",
        ),
    ],
)
def test_a_project_import_goes_under_the_namespace(written: str, rewritten: str) -> None:
    assert backend().namespaced_source(written.encode(), "m.py").decode() == rewritten


@pytest.mark.parametrize(
    "kept",
    [
        "from . import data\n",
        "from .engine import x\n",
        "import os, sys\n",
        "import enginex\n",
        "from serverless import y\n",
        's = "from engine import x"\n',
        '"""import engine"""\n',
        "# import engine\n",
    ],
)
def test_everything_else_is_kept_as_written(kept: str) -> None:
    assert backend().namespaced_source(kept.encode(), "m.py").decode() == kept


def test_an_import_mixing_project_and_other_packages_stops_the_build() -> None:
    module = backend()
    with pytest.raises(module.UnrewrittenImport):
        module.namespaced_source(b"import os, engine\n", "m.py")


def test_a_pyproject_without_its_console_script_line_stops_the_build(tmp_path: Path) -> None:
    module = backend()
    written = (ROOT / "pyproject.toml").read_text()
    (tmp_path / "pyproject.toml").write_text(written.replace('tarot = "cli.main:main"', ""))
    with pytest.raises(module.UnrewrittenImport):
        module.namespaced_pyproject(tmp_path / "pyproject.toml")
    rewritten = module.namespaced_pyproject(ROOT / "pyproject.toml")
    assert 'tarot = "cardavia_tarot.cli.main:main"' in rewritten
    assert 'include = ["cardavia_tarot*"]' in rewritten
