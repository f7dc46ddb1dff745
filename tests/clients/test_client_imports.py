"""Clients import nothing above them: ``clients/`` never imports ``server``, ``ai`` or ``cli``.

A client knows a server by its URL and speaks the protocol (``protocol``: its
models and codecs; ``engine``: card codes and, for bots that want them, the
engine's helpers). The graph of ``clients/``'s imports is drawn from the
source, imports inside functions included, and every edge to a package above
the clients fails. Before issue 26 point 5, ``clients/terminal/app.py`` started
a ``server.app.App`` itself (now ``cli/play_server.py`` hands it one) and
``clients/python/enginebot.py`` imported ``ai`` (now ``cli/engine_bot.py``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = ROOT / "clients"
ABOVE = {"server", "ai", "cli"}  # what a client may not import
FIRST_PARTY = {"engine", "protocol", "clients", *ABOVE}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, package: str) -> set[str]:
    """The first-party modules ``source``, a module of ``package``, imports anywhere in it."""
    here = package.split(".")
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: ``.`` is the package, ``..`` its parent
                base = here[: len(here) - node.level + 1]
                out.add(".".join([*base, *([node.module] if node.module else [])]))
            elif node.module:
                out.add(node.module)
    return {name for name in out if name.split(".")[0] in FIRST_PARTY}


def import_graph() -> dict[str, set[str]]:
    """Each module of ``clients/`` and the first-party modules it imports."""
    graph = {}
    for path in sorted(CLIENTS.rglob("*.py")):
        package = module_name(path.parent / "__init__.py")
        graph[module_name(path)] = imported(path.read_text(encoding="utf-8"), package)
    return graph


def upward(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{module} imports {name}"
        for module, names in graph.items()
        for name in names
        if name.split(".")[0] in ABOVE
    )


def test_clients_import_nothing_above_them() -> None:
    graph = import_graph()
    assert {"clients.python.client", "clients.terminal.app"} <= set(graph)  # the tree was read
    assert upward(graph) == []


def test_clients_import_only_the_protocol_the_engine_and_themselves() -> None:
    used = {name.split(".")[0] for names in import_graph().values() for name in names}
    assert used <= {"protocol", "engine", "clients"}
    assert {"protocol", "clients"} <= used


@pytest.mark.parametrize(
    ("module", "source", "above"),
    [
        (  # the terminal's local server, imported where it was started
            "clients.terminal.app",
            "async def _connect(self):\n    from server.app import App as ServerApp\n",
            "server.app",
        ),
        ("clients.python.enginebot", "import ai\n", "ai"),
        ("clients.python.bot", "from cli.bot import load_policy\n", "cli.bot"),
    ],
)
def test_an_import_from_above_is_caught(module: str, source: str, above: str) -> None:
    package = module.rpartition(".")[0]
    assert upward({module: imported(source, package)}) == [f"{module} imports {above}"]


def test_relative_imports_are_read_as_the_modules_they_name() -> None:
    source = "from . import render\nfrom .state import x\nfrom ..python import Client\n"
    assert imported(source, "clients.terminal") == {
        "clients.terminal",
        "clients.terminal.state",
        "clients.python",
    }
