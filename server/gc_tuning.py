"""The garbage collector's settings for a server process: fewer, shorter pauses.

CPython's cycle collector stops the event loop while it scans. With the
defaults (a young collection every 700 net allocations, a full one whenever
the older objects grew by a quarter) a node holding 800 connections paused
for 50-150 ms every few seconds while tables filled up, and every action in
flight waited: measured, those pauses were the whole p99 of `tarot bench
server`. Two changes, both standard for long-running CPython servers:

- ``gc.freeze()`` once the node is up: modules, classes and functions are
  never garbage, so no full collection scans them again.
- A young generation of ``YOUNG`` objects instead of 700: collections are
  rarer (the full ones with them), each a little longer. Reference counting
  still frees almost everything at once; the collector is only for cycles
  (closed connections leave some, and they are still collected).

``Pauses`` measures what this buys: each collection's pause, by generation,
on ``/metrics`` (``tarot_gc_pause_seconds``; ``tarot bench server`` reads it).
Freezing the survivors every second as well (a collection of the young and
middle generations, then ``gc.freeze()``, and a full collection once the
frozen heap grew by a quarter) was tried at 200 tables and made things
worse: 0.38 -> 0.65 CPU s per 1,000 actions, and the full collections it
brings (110 ms of CPU) while connections and the memory store's event logs
grow. What is left are young collections: 7-21 ms of CPU at the longest on
this loaded machine (docs/BENCHMARKS.md, "Server"); a smaller young generation makes
them shorter, but brings middle collections of 19-29 ms.

Measured again once the memory store's event logs stopped growing the heap
(``store._EventLog``: 230k tracked objects at 200 tables became 120k, and
the collections' total time in a 12 s window fell from ~600 to ~30-40 ms):
a young collection still scans 14-30k objects whatever ``YOUNG`` is, because
CPython 3.11 counts allocations *minus deallocations* of tracked objects. A
commit frees the table's previous state (old objects) as it makes the next
(young ones), so the count hardly moves while the young list grows to every
table's and connection's latest state. With ``YOUNG`` at 2,000, 5,000 and
20,000 (200 tables, 300 ms think time, load ~3), the longest young pause was
8-12 ms of CPU in each case; 2,000 and 5,000 brought 4-10x the collections and
middle ones of 9-26 ms. So 20,000 stays: fewest pauses and least GC time.
Shorter pauses need fewer tracked objects per table state, an incremental
collector (CPython 3.14), or collections at times the node chooses.

That last lever is ``sweep`` (issue 28): the node collects the young and middle
generations every 50 ms itself (``--gc-sweep-ms``), so each collection scans
the survivors of 50 ms of play instead of whatever CPython's count let pile
up. Measured with ``tarot bench server --tables 200 --think-ms 300`` on this
2-core machine (one run each, load 4-9 from other work, so the wall-clock
pauses are noisy and the CPU ones are the figure): without it the longest
young pause took 12.4 ms of CPU; sweeping every 50 ms, collecting the middle
generation every tenth sweep, the young pauses fell to 3.2 ms but the middle
ones took 10.1 ms; every third, 5.5 and 4.1 ms; at every sweep (what
``sweep`` does) the longest pause took 2.2 ms of CPU, for the same CPU per
action (0.418 vs 0.428 CPU s per 1,000 actions). Full collections keep
CPython's rule (the old generation grew by a quarter); none ran in these
windows, and one is the pause longer than 5 ms that remains.
"""

from __future__ import annotations

import asyncio
import bisect
import gc
import time

YOUNG = 20_000
SWEEP_SECONDS = 0.05  # how often the sweeper collects the young and middle generations
FULL_CHECK_SECONDS = 30.0  # how often the sweeper counts the old generation
FULL_GROWTH = 1.25  # a full collection once the old generation grew by a quarter


def settle() -> None:
    """Collect once, freeze what survives (the node's start-up), raise the young threshold."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)


async def sweep(period: float = SWEEP_SECONDS) -> None:
    """Collect the young and middle generations every ``period`` seconds and the old one
    when it grew by a quarter (CPython's own rule for full collections), until cancelled.

    Each collection then scans what ``period`` left, never every table's latest state
    (the module's docstring says why CPython's own timing lets the young list grow to
    that). CPython's automatic collections stay on as a backstop: a burst of
    allocations between two sweeps still triggers one."""
    old_size = len(gc.get_objects(2))
    next_check = time.monotonic() + FULL_CHECK_SECONDS
    while True:
        await asyncio.sleep(period)
        gc.collect(1)
        if time.monotonic() >= next_check:
            next_check = time.monotonic() + FULL_CHECK_SECONDS
            size = len(gc.get_objects(2))
            if size > old_size * FULL_GROWTH:
                gc.collect(2)
                old_size = len(gc.get_objects(2))


# Upper bounds (seconds) of the pause histogram's buckets; the last bucket is unbounded.
PAUSE_BOUNDS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25)
GENERATIONS = 3


class Pauses:
    """How long each collection stopped the process, timed with ``gc.callbacks``.

    Each pause in wall-clock time (what a waiting action sees) and in the
    thread's CPU time (what the collection cost: on a loaded machine the
    wall clock also counts the time other processes ran). Plain counters: a
    collection can start while any code holds any lock (Prometheus's metrics
    take a non-reentrant one), so the callback touches nothing else;
    ``metrics.py`` reads these counters when it renders.
    """

    def __init__(self) -> None:
        self.buckets = [[0] * (len(PAUSE_BOUNDS) + 1) for _ in range(GENERATIONS)]
        self.total = [0.0] * GENERATIONS
        self.longest = [0.0] * GENERATIONS
        self.longest_cpu = [0.0] * GENERATIONS
        self._started = (0.0, 0.0)

    def watch(self) -> None:
        if self._callback not in gc.callbacks:
            gc.callbacks.append(self._callback)

    def unwatch(self) -> None:
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = (time.perf_counter(), time.thread_time())
            return
        wall, cpu = self._started
        self.record(info["generation"], time.perf_counter() - wall, time.thread_time() - cpu)

    def record(self, generation: int, seconds: float, cpu_seconds: float = 0.0) -> None:
        self.buckets[generation][bisect.bisect_left(PAUSE_BOUNDS, seconds)] += 1
        self.total[generation] += seconds
        self.longest[generation] = max(self.longest[generation], seconds)
        self.longest_cpu[generation] = max(self.longest_cpu[generation], cpu_seconds)
