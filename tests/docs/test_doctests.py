"""The examples in the packages' docstrings run, as they are written.

A newcomer starts at a package's docstring: its example must work when pasted.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

PACKAGES = ("engine", "protocol", "ai", "cli", "server", "clients.python")
# The front doors: each package's own docstring shows it at work.
FRONT_DOORS = ("engine", "protocol", "ai")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        names.append(package)
        for info in pkgutil.walk_packages(module.__path__, prefix=f"{package}."):
            names.append(info.name)
    return names


def _examples(module: ModuleType) -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder(exclude_empty=True)
    return [test for test in finder.find(module) if test.examples]


MODULES_WITH_EXAMPLES = [name for name in _modules() if _examples(importlib.import_module(name))]


@pytest.mark.parametrize("name", MODULES_WITH_EXAMPLES)
def test_examples_run(name: str) -> None:
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in _examples(importlib.import_module(name)):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} fail"


@pytest.mark.parametrize("name", FRONT_DOORS)
def test_each_front_door_has_a_running_example(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__doc__ is not None and ">>> " in module.__doc__
    assert name in MODULES_WITH_EXAMPLES
