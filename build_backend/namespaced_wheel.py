"""The project's build backend: setuptools, with the wheel's packages under one name.

In a checkout the packages are top-level folders (``engine/``, ``protocol/``, ``server/``,
``ai/``, ``clients/``, ``cli/``: the design card fixes them), and an editable install
keeps them so. A wheel is installed beside other software, where names as common as
``server`` or ``cli`` would shadow or be shadowed by another distribution's. So a wheel
is built from a staging copy in which the packages live under ``cardavia_tarot/`` and
their absolute imports of each other are rewritten (``from engine.cards import Card``
becomes ``from cardavia_tarot.engine.cards import Card``, ``import engine`` becomes
``from cardavia_tarot import engine``). Relative imports, data files and ``__file__``
paths need nothing: the tree under the namespace is the checkout's own.

The rewrite is checked: a build fails if any absolute import of a project package is left.
Standard library and setuptools only: this runs before anything else is installed.
"""

from __future__ import annotations

import ast
import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from setuptools import build_meta  # type: ignore[import-untyped, unused-ignore]

NAMESPACE = "cardavia_tarot"
PACKAGES = ("engine", "protocol", "server", "ai", "clients", "cli")
# Copied beside the namespace: what setuptools reads to make the wheel's metadata.
PROJECT_FILES = ("pyproject.toml", "README.md", "LICENSE")
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", "node_modules", ".mypy_cache")

# The editable install and the sdist are setuptools' own: a checkout keeps its layout, and
# an sdist holds the checkout (this backend included), from which a wheel is built as here.
get_requires_for_build_wheel = build_meta.get_requires_for_build_wheel
get_requires_for_build_sdist = build_meta.get_requires_for_build_sdist
get_requires_for_build_editable = build_meta.get_requires_for_build_editable
prepare_metadata_for_build_editable = build_meta.prepare_metadata_for_build_editable
build_editable = build_meta.build_editable
build_sdist = build_meta.build_sdist


class UnrewrittenImport(Exception):
    """An import of a project package that the rewrite could not place under the namespace."""


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    with _staged() as stage, contextlib.chdir(stage):
        return str(build_meta.build_wheel(os.path.abspath(wheel_directory), config_settings))


def prepare_metadata_for_build_wheel(
    metadata_directory: str, config_settings: dict[str, Any] | None = None
) -> str:
    # The staged tree's metadata: its entry point is the namespaced one the wheel installs.
    with _staged() as stage, contextlib.chdir(stage):
        target = os.path.abspath(metadata_directory)
        return str(build_meta.prepare_metadata_for_build_wheel(target, config_settings))


@contextlib.contextmanager
def _staged() -> Iterator[Path]:
    source = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="cardavia-wheel-") as folder:
        stage = Path(folder)
        for name in PROJECT_FILES:
            if (source / name).exists():
                shutil.copy2(source / name, stage / name)
        (stage / "pyproject.toml").write_text(namespaced_pyproject(source / "pyproject.toml"))
        root = stage / NAMESPACE
        root.mkdir()
        (root / "__init__.py").write_text(
            '"""cardavia-tarot: the engine, protocol, server, AI, clients and command line."""\n'
        )
        for package in PACKAGES:
            shutil.copytree(source / package, root / package, ignore=SKIPPED)
        for module in root.rglob("*.py"):
            module.write_bytes(namespaced_source(module.read_bytes(), str(module)))
        yield stage


def namespaced_pyproject(path: Path) -> str:
    """The pyproject of the staged tree: the namespace's packages and its console script."""
    text = path.read_text()
    for pattern, replacement in (
        (r'(?m)^(\w+ = ")(cli\.\w+:\w+")', rf"\g<1>{NAMESPACE}.\g<2>"),
        (r"(?m)^include = \[[^\]]*\]", f'include = ["{NAMESPACE}*"]'),
    ):
        text, found = re.subn(pattern, replacement, text)
        if found != 1:  # the console script and the packages' find: one line each
            raise UnrewrittenImport(f"pyproject.toml has {found} lines matching {pattern!r}")
    return text


def namespaced_source(source: bytes, name: str) -> bytes:
    """``source`` with every absolute import of a project package under the namespace."""
    lines = source.splitlines(keepends=True)
    # Last first, so that each edit leaves the offsets of those before it where they were.
    for node in sorted(_project_imports(ast.parse(source, name)), key=_start, reverse=True):
        row = node.lineno - 1
        line = lines[row]
        if isinstance(node, ast.ImportFrom):
            found = re.compile(rb"from\s+").match(line, node.col_offset)
            if found is None:
                raise UnrewrittenImport(f"{name}:{node.lineno}: 'from' and its module apart")
            at = found.end()
            lines[row] = line[:at] + NAMESPACE.encode() + b"." + line[at:]
        else:
            if node.end_lineno != node.lineno or node.end_col_offset is None:
                raise UnrewrittenImport(f"{name}:{node.lineno}: an import over several lines")
            statement = "; ".join(_namespaced_import(alias) for alias in node.names)
            end = node.end_col_offset
            lines[row] = line[: node.col_offset] + statement.encode() + line[end:]
    result = b"".join(lines)
    left = list(_project_imports(ast.parse(result, name)))
    if left:
        raise UnrewrittenImport(f"{name}:{left[0].lineno}: an import was not rewritten")
    return result


def _namespaced_import(alias: ast.alias) -> str:
    package, _, rest = alias.name.partition(".")
    if alias.asname:
        if rest:
            return f"import {NAMESPACE}.{alias.name} as {alias.asname}"
        return f"from {NAMESPACE} import {package} as {alias.asname}"
    if rest:  # `import engine.cards` binds `engine`, with engine.cards loaded
        return f"import {NAMESPACE}.{alias.name}; from {NAMESPACE} import {package}"
    return f"from {NAMESPACE} import {package}"


def _project_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module and _is_project(node.module):
                yield node
        elif isinstance(node, ast.Import) and any(_is_project(a.name) for a in node.names):
            if not all(_is_project(a.name) for a in node.names):
                raise UnrewrittenImport(f"line {node.lineno}: a project and another package")
            yield node


def _is_project(module: str) -> bool:
    return module.split(".")[0] in PACKAGES


def _start(node: ast.stmt) -> tuple[int, int]:
    return node.lineno, node.col_offset
