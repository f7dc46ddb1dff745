"""The memory store's event logs, which are most of what a node holds, cost the garbage
collector nothing: a defect of the issue of speed (issue 18). Kept as ``StoredEvent``
models, each event was five tracked objects, every collection scanned them all, and at
200 tables the pauses reached 100-200 ms."""

from __future__ import annotations

import gc

from protocol import models as m
from server.store.base import EVENT_LOG_LIMIT
from server.store.memory import MemoryStore
from server.table.data import StoredEvent, TableData


def table(version: int, seq: int) -> TableData:
    return TableData(
        table_id="t1", options=m.TableOptions(), created_ms=1, version=version, seq=seq
    )


def events(first: int, count: int) -> list[StoredEvent]:
    return [
        StoredEvent(
            s,
            (s % 4,) if s % 3 == 0 else None,
            {"kind": "trick", "winner": s % 4, "cards": ["KH", "1T", "EX", "2C"]},
        )
        for s in range(first, first + count)
    ]


async def log_events(store: MemoryStore, commits: int, per_commit: int = 5) -> None:
    for version in range(1, commits + 1):
        seq = (version - 1) * per_commit
        await store.commit(table(version, seq + per_commit), events(seq + 1, per_commit))


async def test_logged_events_are_not_tracked_by_the_garbage_collector() -> None:
    store = MemoryStore()
    await store.create(table(0, 0))
    gc.collect()
    before = len(gc.get_objects())
    await log_events(store, 200)  # 1,000 events
    gc.collect()
    assert len(gc.get_objects()) - before < 50
    # and they read back as they were committed
    assert await store.events_since("t1", 990) == events(991, 10)


async def test_the_log_keeps_its_last_events_and_says_when_older_ones_are_gone() -> None:
    store = MemoryStore()
    await store.create(table(0, 0))
    commits = EVENT_LOG_LIMIT // 5 + 10  # 50 events past the limit
    await log_events(store, commits)
    last = commits * 5
    assert await store.events_since("t1", 0) is None
    assert await store.events_since("t1", 49) is None
    kept = await store.events_since("t1", 50)
    assert kept == events(51, EVENT_LOG_LIMIT)
    assert await store.events_since("t1", last) == []
