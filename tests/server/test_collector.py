"""A server process's garbage collector: its start-up heap frozen, a larger young generation."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from server import collector


@pytest.fixture
def restored_gc() -> Iterator[None]:
    threshold = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


@pytest.mark.usefixtures("restored_gc")
def test_settle_freezes_the_start_up_heap_and_widens_the_young_generation() -> None:
    gc.unfreeze()
    before = gc.get_threshold()
    collector.settle()
    assert gc.get_freeze_count() > 1000  # modules, classes, functions
    assert gc.get_threshold() == (collector.YOUNG, before[1], before[2])


@pytest.mark.usefixtures("restored_gc")
def test_cycles_made_after_settling_are_still_collected() -> None:
    collector.settle()

    class Node:
        other: object = None

    a, b = Node(), Node()
    a.other, b.other = b, a
    del a, b
    assert gc.collect() >= 2
