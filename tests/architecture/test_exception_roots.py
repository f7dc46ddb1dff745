"""One exception root per package (issue 26 point 4): whatever a package raises on
purpose is a subclass of its root, so a caller tells that package's refusals from
bugs (and from other packages' errors) with one ``except``."""

from __future__ import annotations

import importlib
import inspect

import pytest

from .imports import source_modules

ROOTS = {
    "engine": "engine.errors.TarotError",
    "protocol": "protocol.errors.ProtocolError",
    "server": "server.errors.ServerError",
    "ai": "ai.errors.AiError",
    "clients": "clients.python.errors.ClientError",
    "cli": "cli.errors.CliError",
}


def _root(dotted: str) -> type[BaseException]:
    module, _, name = dotted.rpartition(".")
    root = getattr(importlib.import_module(module), name)
    assert isinstance(root, type) and issubclass(root, Exception)
    return root


def exceptions_defined_in(package: str) -> list[type[BaseException]]:
    found = []
    for name in source_modules():
        if name != package and not name.startswith(f"{package}."):
            continue
        module = importlib.import_module(name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == name:
                found.append(value)
    return found


@pytest.mark.parametrize("package", sorted(ROOTS))
def test_every_exception_a_package_defines_derives_from_its_root(package: str) -> None:
    root = _root(ROOTS[package])
    defined = exceptions_defined_in(package)
    assert root in defined, "the search found not even the root: it is broken"
    strays = [f"{e.__module__}.{e.__qualname__}" for e in defined if not issubclass(e, root)]
    assert not strays, f"not under {ROOTS[package]}: {strays}"


def test_no_package_derives_from_another_packages_root() -> None:
    roots = {package: _root(dotted) for package, dotted in ROOTS.items()}
    crossed = [
        f"{e.__module__}.{e.__qualname__} is a {other}"
        for package in ROOTS
        for e in exceptions_defined_in(package)
        for other, root in roots.items()
        if other != package and issubclass(e, root)
    ]
    assert not crossed, crossed
