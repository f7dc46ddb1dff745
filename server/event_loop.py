"""Which event loop a node runs on: uvloop where it is installed, asyncio's own otherwise.

uvloop (libuv under asyncio's API) does a loop iteration, a socket read and a
write in less CPU than asyncio's selector loop; a node spends most of its CPU
there (docs/BENCHMARKS.md, "Server", for what it measured). ``--event-loop
asyncio`` keeps the standard loop (to compare, or where uvloop misbehaves).
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")
LOOPS = ("auto", "asyncio", "uvloop")


def chosen(name: str) -> str:
    """The loop ``name`` gives here: ``auto`` is uvloop when it can be imported."""
    if name == "auto":
        return "uvloop" if importlib.util.find_spec("uvloop") is not None else "asyncio"
    return name


def missing(name: str) -> str | None:
    """Why the loop ``name`` cannot run here (None: it can): uvloop asked by name where it
    is not installed would otherwise fail at start-up with an import's traceback."""
    if name == "uvloop" and importlib.util.find_spec("uvloop") is None:
        return "uvloop is not installed here (pip install uvloop), or choose auto or asyncio"
    return None


def loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The factory of the loop ``name`` gives (None: asyncio's default)."""
    if chosen(name) == "uvloop":
        # Imported by name: uvloop is optional (not a dependency), so not always there to
        # type-check against.
        factory: Callable[[], asyncio.AbstractEventLoop] = importlib.import_module(
            "uvloop"
        ).new_event_loop
        return factory
    return None


def run(main: Coroutine[Any, Any, T], name: str = "auto") -> T:
    """``asyncio.run(main)`` on the loop ``name`` gives."""
    with asyncio.Runner(loop_factory=loop_factory(name)) as runner:
        return runner.run(main)
