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
"""

from __future__ import annotations

import gc

YOUNG = 20_000


def settle() -> None:
    """Collect once, freeze what survives (the node's start-up), raise the young threshold."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
