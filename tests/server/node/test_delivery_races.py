"""Two nodes committing at once: the loser of the version race reloads, and pub/sub may
have brought it newer versions than its load (issue 13.1). It must not take that load
for a store that lost commits: no snapshot going back, no event twice."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable

from server.node.runtime import TableRuntime
from server.store.base import StoreUnavailable
from server.table import transitions as tr
from server.table.data import StoredEvent, TableData

from ..recorder import Recorder
from .test_commit_chain import QuietStore, bid, consistent, two_nodes
from .test_commit_chain import ordinary_deals as ordinary_deals  # autouse: the tests bid


class LateLoads(QuietStore):
    """``after_load`` runs once the table is read and before the load returns: what pub/sub
    delivers while the reply is on its way."""

    def __init__(self) -> None:
        super().__init__()
        self.after_load: list[Callable[[], Awaitable[None]]] = []

    async def load(self, table_id: str) -> TableData | None:
        data = await super().load(table_id)
        while self.after_load:
            await self.after_load.pop(0)()
        return data


def frames_in_order(recorder: Recorder) -> list[int]:
    """The numbers a follower was sent, events and snapshots alike."""
    return [f["seq"] for f in recorder.frames if f["type"] in ("event", "snapshot")]


async def test_a_load_older_than_what_pub_sub_brought_is_not_a_lost_commit() -> None:
    store, a, b = await two_nodes()
    late = LateLoads()
    late.__dict__.update(store.__dict__)
    a.services = b.services = dataclasses.replace(a.services, store=late)
    watcher = Recorder(None)
    await a.follow(watcher)
    await b.transact(lambda d, s: tr.act(d, s, bid(b), 0))  # B wins the race for v+1

    async def overtaken() -> None:  # B commits again; both updates reach A before its load
        await b.transact(lambda d, s: tr.act(d, s, bid(b), 0))
        for update in late.committed[-2:]:
            a.apply_update(update)

    late.after_load.append(overtaken)
    await a.transact(lambda d, s: tr.act(d, s, bid(a), 0))  # refused, reloaded, made again
    assert a.data.version == late._tables["t1"].version and consistent(a)
    seqs = frames_in_order(watcher)
    assert [f["type"] for f in watcher.frames].count("snapshot") == 1, watcher.frames
    assert seqs == sorted(set(seqs)), seqs  # nothing twice, nothing going back


class FailingReads(QuietStore):
    """The event log does not answer ``failures`` times (Redis restarting), then does."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures

    async def events_since(self, table_id: str, seq: int) -> list[StoredEvent] | None:
        if self.failures:
            self.failures -= 1
            raise StoreUnavailable("redis failed: connection closed by server")
        return await super().events_since(table_id, seq)


async def gap_on_a(failures: int) -> tuple[TableRuntime, TableRuntime, Recorder]:
    """B commits two bids; A hears only of the second (the first's update was lost with
    the pub/sub connection), so A must read the first from the log."""
    store, a, b = await two_nodes()
    failing = FailingReads(failures)
    failing.__dict__.update({**store.__dict__, "failures": failures})
    a.services = b.services = dataclasses.replace(a.services, store=failing)
    assert a.state is not None
    watcher = Recorder(None)
    await a.follow(watcher)
    await b.transact(lambda d, s: tr.act(d, s, bid(b), 0))
    await b.transact(lambda d, s: tr.act(d, s, bid(b), 0))
    a.apply_update(failing.committed[-1])
    return a, b, watcher


async def test_a_catch_up_read_that_fails_is_retried_until_the_followers_have_every_event() -> None:
    a, b, watcher = await gap_on_a(failures=3)
    for _ in range(100):
        if a.delivered == b.data.seq:
            break
        await asyncio.sleep(0.02)
    assert a.delivered == b.data.seq  # issue 13.14: it stopped at the gap for good
    seqs = frames_in_order(watcher)
    assert seqs == list(range(seqs[0], b.data.seq + 1)), seqs  # every event, once, in order
