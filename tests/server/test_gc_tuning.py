"""A server process's garbage collector: its start-up heap frozen, a larger young generation,
and its pauses measured."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from cli.bench.processes import gc_figures, samples
from server import gc_tuning as collector
from server.metrics import Metrics
from server.settings import Settings, SettingsError


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


def test_pauses_time_each_collection_by_generation_on_metrics() -> None:
    metrics = Metrics()
    before = samples(metrics.render({}).decode())
    metrics.gc_pauses.watch()
    try:
        gc.collect(0)
        gc.collect(2)
        gc.collect(2)
    finally:
        metrics.gc_pauses.unwatch()
    gc.collect(1)  # not watched any more: not counted
    assert [sum(counts) for counts in metrics.gc_pauses.buckets] == [1, 0, 2]
    assert 0 < metrics.gc_pauses.longest[2] <= metrics.gc_pauses.total[2]
    assert 0 < metrics.gc_pauses.longest_cpu[2]
    after = samples(metrics.render({}).decode())
    assert after['tarot_gc_pause_seconds_count{generation="2"}'] == 2
    assert after['tarot_gc_pause_max_seconds{generation="2"}'] == metrics.gc_pauses.longest[2]
    cpu = after['tarot_gc_pause_cpu_max_seconds{generation="2"}']
    assert cpu == metrics.gc_pauses.longest_cpu[2]
    figures = gc_figures(before, after)
    assert figures["gc_pauses"] == 3
    assert figures["gc_longest_pause_ms"] == round(1000 * metrics.gc_pauses.longest[2], 2)
    assert figures["gc_longest_pause_cpu_ms_by_generation"][2] == round(1000 * cpu, 2)


def test_a_pause_over_5ms_is_counted_as_such() -> None:
    metrics = Metrics()
    before = samples(metrics.render({}).decode())
    for seconds in (0.0049, 0.005, 0.0051, 0.08):
        metrics.gc_pauses.record(1, seconds)
    figures = gc_figures(before, samples(metrics.render({}).decode()))
    assert (figures["gc_pauses"], figures["gc_pauses_over_5ms"]) == (4, 2)
    assert (figures["gc_longest_pause_ms"], figures["gc_pause_ms_total"]) == (80.0, 95.0)


@pytest.mark.usefixtures("restored_gc")
async def test_the_sweeper_collects_the_young_and_middle_generations_on_its_period() -> None:
    """Issue 28: collections at the node's times, each scanning what one period left."""
    collector.settle()
    metrics = Metrics()
    metrics.gc_pauses.watch()
    sweeper = asyncio.create_task(collector.sweep(0.02))
    try:

        class Node:
            other: object = None

        a, b = Node(), Node()
        a.other, b.other = b, a
        ref = weakref.ref(a)
        del a, b
        await asyncio.sleep(0.3)
    finally:
        sweeper.cancel()
        metrics.gc_pauses.unwatch()
    _young, middle, old = (sum(counts) for counts in metrics.gc_pauses.buckets)
    assert middle >= 5  # every sweep collects the young and middle generations together
    assert old == 0  # the old generation did not grow by a quarter in 0.3 s
    assert ref() is None  # a cycle made meanwhile was collected


def test_a_negative_sweep_period_is_refused() -> None:
    with pytest.raises(SettingsError, match="sweep period"):
        Settings(gc_sweep_ms=-1)
