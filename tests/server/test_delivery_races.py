"""Two nodes committing at once: the loser of the version race reloads, and pub/sub may
have brought it newer versions than its load (issue 13.1). It must not take that load
for a store that lost commits: no snapshot going back, no event twice."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from server import transitions as tr
from server.tabledata import TableData

from .recorder import Recorder
from .test_commit_chain import QuietStore, bid, consistent, two_nodes


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
    a.node.store = b.node.store = late
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
