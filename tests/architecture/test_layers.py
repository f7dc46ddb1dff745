"""The architecture holds: no import circle anywhere, every layer imports only below it.

Issue 26: the imports drawn from main at 61c6d4a had 12 layers, 4 imports pointing
upward and three circles (``node -> lobby -> table -> driver -> reviews -> node``,
``redis_store <-> redis_updates``, ``cli/schema <-> cli/schema_ts``). The layers are
the README's picture: a module may import its own layer and those below.
"""

from __future__ import annotations

import json
import subprocess
import sys

from .imports import ROOT, cycle, import_graph

# Top-level packages, lowest first: each may import itself and those listed before it
# (the same line: not each other).
PACKAGE_LAYERS: list[set[str]] = [
    {"engine"},
    {"protocol", "ai"},
    {"clients"},
    {"server"},
    {"cli"},
]
ALLOWED_ACROSS = {
    "protocol": {"engine"},
    "ai": {"engine"},
    "clients": {"engine", "protocol"},
    "server": {"engine", "protocol", "ai"},
    "cli": {"engine", "protocol", "ai", "clients", "server"},
}
# Inside server/: the process-wide base modules, duplicate events without I/O (the history
# scores them), the sans-I/O table and the history, the settings' value checks, quick play's
# queue (with its settings), the settings (they check the history's URL and hold the queue's),
# the stores, the node, the network edge, and the app that assembles them.
SERVER_LAYERS: list[set[str]] = [
    {
        "server",
        "server.errors",
        "server.clock",
        "server.logs",
        "server.gc_tuning",
        "server.event_loop",
    },
    {"server.metrics"},
    {"server.duplicate"},
    {"server.table", "server.history"},
    {"server.setting_checks"},
    {"server.queue"},  # quick play: matching (pure), its tickets in memory or Redis
    {"server.settings"},
    {"server.store"},
    {"server.node"},
    {"server.net"},
    {"server.app"},
]
# What a sans-I/O module may never have loaded (the engine's own test forbids more).
IO_MODULES = ["asyncio", "websockets", "redis", "sqlalchemy", "aiosqlite", "asyncpg"]


def top(module: str) -> str:
    return module.split(".")[0]


def server_layer(module: str) -> int:
    """The layer of a server module: its sub-package's, or its own for the base modules."""
    for level, names in enumerate(SERVER_LAYERS):
        if module in names or ".".join(module.split(".")[:2]) in names - {"server"}:
            return level
    raise AssertionError(f"{module} is in no server layer: add it to SERVER_LAYERS")


def upward_server_imports(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{source} -> {target}"
        for source, targets in graph.items()
        if top(source) == "server"
        for target in targets
        if top(target) == "server" and server_layer(target) > server_layer(source)
    )


def imports_across_packages(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{source} -> {target}"
        for source, targets in graph.items()
        for target in targets
        if top(target) != top(source) and top(target) not in ALLOWED_ACROSS.get(top(source), ())
    )


def test_no_import_circle_anywhere() -> None:
    assert cycle(import_graph()) is None


def test_the_circle_check_finds_a_circle() -> None:
    graph = {"server.node.node": {"server.node.lobby"}, "server.node.lobby": {"server.node.node"}}
    found = cycle(graph)
    assert found is not None and set(found) == {"server.node.node", "server.node.lobby"}


def test_server_modules_import_only_their_layer_and_below() -> None:
    assert upward_server_imports(import_graph()) == []


def test_the_layer_check_finds_an_upward_import() -> None:
    graph = {"server.table.transitions": {"server.node.runtime"}, "server.node.runtime": set()}
    assert upward_server_imports(graph) == ["server.table.transitions -> server.node.runtime"]


def test_packages_import_only_below_them() -> None:
    assert imports_across_packages(import_graph()) == []


def test_the_package_check_finds_a_client_that_imports_the_server() -> None:
    graph = {"clients.terminal.app": {"server.app"}}
    assert imports_across_packages(graph) == ["clients.terminal.app -> server.app"]


# Imports every server.table module in a fresh interpreter and lists the I/O modules
# that came with them (the table's code is sans-I/O: decisions, never I/O).
PROBE = """
import importlib, json, pkgutil, sys
sys.path.insert(0, {root!r})
import server.table
for module in pkgutil.iter_modules(server.table.__path__):
    importlib.import_module("server.table." + module.name)
print(json.dumps(sorted({{n.split(".")[0] for n in sys.modules}} & set({io!r}))))
"""


def test_server_table_is_sans_io() -> None:
    code = PROBE.format(root=str(ROOT), io=IO_MODULES)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []


def test_the_sans_io_probe_would_notice_asyncio() -> None:
    code = PROBE.format(root=str(ROOT), io=IO_MODULES).replace(
        "import server.table\n", "import server.table, asyncio\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert json.loads(result.stdout) == ["asyncio"]
