"""A name says which thing it is: no two packages give one public name to two things.

``ScoreSheet``, ``Event`` and ``Number`` each once named two things (the engine's
and the wire's); a newcomer reading ``ScoreSheet`` could not tell which. ``Bot``
was both the AI's player interface (now ``ai.AiPlayer``) and the client
library's bot at a table; ``Connection`` both the server's connection of a
client and the client library's socket to a server (now ``TarotSocket``);
``Action`` both the engine's actions and the client library's wire actions (now
``WireAction``). Issue 19 point 5. ``Node`` was the server's node and two command-line
wrappers of a node's process (now ``NodeProcess``, ``NodeUnderTest``), ``Settings`` the
server's and the deal review's (now ``ReviewSettings``), ``BadName`` the protocol's, the
names module's and the history's (now one ``protocol.errors.BadName``, and the history's
``BadAccountName``), ``ServerError`` the client library's "the server refused" (now
``Refused``) beside the server's root error: issue 26.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "protocol", "server", "ai", "clients/python", "clients/terminal", "cli")
PUBLIC_APIS = ("engine", "protocol", "protocol.models", "ai", "clients.python", "clients.terminal")
# The names issue 19 found meaning two things.
NAMED_TWICE = (
    "ScoreSheet",
    "Event",
    "Number",
    "Bot",
    "Connection",
    "Action",
    "Node",
    "Settings",
    "BadName",
    "ServerError",
)


def test_the_public_apis_never_bind_one_name_to_two_things() -> None:
    bound: dict[str, dict[int, str]] = defaultdict(dict)
    for name in PUBLIC_APIS:
        module = importlib.import_module(name)
        for public in getattr(module, "__all__", []):
            bound[public][id(getattr(module, public))] = name
    shared = {n: sorted(b.values()) for n, b in bound.items() if len(b) > 1}
    assert not shared, shared


def test_the_names_found_twice_are_defined_once() -> None:
    listed = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    where: dict[str, set[str]] = defaultdict(set)
    for name in listed:
        package = next((p for p in PACKAGES if name.startswith(f"{p}/")), None)
        if package is None or not (ROOT / name).exists():
            continue
        for defined in _top_level_names(ast.parse((ROOT / name).read_text())):
            where[defined].add(package)
    twice = {n: sorted(where[n]) for n in NAMED_TWICE if len(where[n]) > 1}
    assert not twice, twice


def _top_level_names(tree: ast.Module) -> set[str]:
    names = {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names
