"""The project's import graph, drawn from the source (every import, wherever it is written).

An import inside a function or under ``TYPE_CHECKING`` is still a dependency:
the module cannot be understood, or type-checked, without the other one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "protocol", "server", "ai", "clients", "cli")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_modules() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name."""
    return {
        module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _imported(tree: ast.Module, name: str, is_package: bool, modules: set[str]) -> Iterator[str]:
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            for alias in node.names:
                # ``from package import module`` imports the module; anything else the
                # package (its ``__init__``) itself.
                sub = f"{target}.{alias.name}"
                yield sub if sub in modules else target


def import_graph() -> dict[str, set[str]]:
    """module -> the project's modules it imports (the package ``__init__``s included)."""
    modules = source_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        targets = set()
        for target in _imported(tree, name, path.name == "__init__.py", set(modules)):
            if target in modules and target != name:
                targets.add(target)
        graph[name] = targets
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """An import circle of the graph (its modules, the first repeated), or None."""
    try:
        list(TopologicalSorter(graph).static_order())
    except CycleError as e:
        return list(e.args[1])
    return None
