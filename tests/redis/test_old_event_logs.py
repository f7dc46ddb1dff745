"""A table whose log an older server wrote (wire bodies) plays on after the upgrade (issue 26).

Servers before issue 26 stored each event as its wire body (form 0); now the log
holds the server's storage form (form 1) and the protocol makes the wire bodies as
it sends them. The same scripted deal (fixed seed, fixed choices) is played twice:
once by an "old" node, whose commits store the wire bodies as the old server did
(each event's model, dumped), once by today's. A node that loads each table then
replays the whole log to version 1 and version 2 readers (every seat and a
spectator, JSON and msgpack): they get the same bytes from both, in a real Redis
and in the memory store, and version 1's replayed events are those sent live. A
table upgraded mid-deal (a log of both forms) is replayed as the new one.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable

import msgpack
import pytest

import engine
from protocol import models as m
from protocol.codecs import JSON, MSGPACK, Codec
from protocol.frames import wire_event
from server.node.runtime import TableRuntime, TableServices
from server.settings import Settings
from server.store.base import TableStore
from server.store.memory import MemoryStore
from server.store.redis.store import RedisStore
from server.table import seating
from server.table import transitions as tr
from server.table.commits import Update
from server.table.data import StoredEvent, TableData
from server.table.seating import JoinRequest
from tests.deal_seeds import deal_from, ordinary, where
from tests.server.node.test_v1_frames import Raw

from .conftest import flush

Stores = Callable[[], Awaitable[TableStore]]


class OldNode:
    """The store as a node before issue 26 wrote to it: each event its wire body."""

    def __init__(self, store: TableStore) -> None:
        self.store = store

    def __getattr__(self, name: str) -> object:
        return getattr(self.store, name)

    async def commit(self, table: TableData, events: list[StoredEvent]) -> Update:
        old = [StoredEvent(e.seq, e.audience, _as_before(e.event)) for e in events]
        assert all("v" not in e.event and "kind" in e.event for e in old)
        return await self.store.commit(table, old)


def _as_before(stored: dict[str, object]) -> dict[str, object]:
    """What the old ``committed_update`` stored: ``model.model_dump(mode="json")``."""
    model = m.EVENTS.validate_python(wire_event(stored))
    body: dict[str, object] = model.model_dump(mode="json")
    return body


def kinds(reader: Raw) -> list[str]:
    loads = json.loads if reader.codec is JSON else msgpack.unpackb
    return [loads(f)["type"] for f in reader.frames]


READERS = [(seat, version) for version in (1, 2) for seat in (0, 1, 2, 3, None)]
ACTIONS = 40  # the bids, the discard, the first tricks


async def play(store: TableStore, codec: Codec, old_for: int = 0) -> list[Raw]:
    """The scripted deal on a new table of ``store``, its first ``old_for`` actions (and the
    joins, if any) by an old node; the live frames of version 1 readers of the first node."""
    first = OldNode(store) if old_for else store
    data = TableData(table_id="upgraded", options=m.TableOptions(), created_ms=1, dealer=0)
    await store.create(data)
    runtime = TableRuntime(TableServices.alone(Settings(), first), data)  # type: ignore[arg-type]
    live = [Raw(seat, codec, 1) for seat in (0, 1, 2, 3, None)]
    for reader in live:
        await runtime.follow(reader)
    for seat in range(4):
        request = JoinRequest("", 0, seat)
        await runtime.transact(lambda d, s, r=request: seating.join(d, s, r))  # type: ignore[misc]
    rng = random.Random(26)
    for done in range(ACTIONS):
        if done == old_for and first is not store:  # the upgrade: a new node takes the table
            await runtime.stop()
            loaded = await store.load("upgraded")
            assert loaded is not None
            runtime = TableRuntime(TableServices.alone(Settings(), store), loaded)
        state = runtime.state
        assert state is not None and not state.is_over
        action = engine.random_action(state, rng)
        await runtime.transact(lambda d, s, a=action: tr.act(d, s, a, 0))  # type: ignore[misc]
    await runtime.stop()
    return live


async def replayed(store: TableStore, codec: Codec) -> list[Raw]:
    """What a node that loads the table replays to each reader resuming from the start."""
    data = await store.load("upgraded")
    assert data is not None
    runtime = TableRuntime(TableServices.alone(Settings(), store), data)
    readers = [Raw(seat, codec, version) for seat, version in READERS]
    for reader in readers:
        assert await runtime.follow(reader, last_seq=0)
    await runtime.stop()
    return readers


@pytest.fixture(params=["memory", "redis"])
async def stores(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[Stores]:
    """A new empty store each call (the last one closed at the end)."""
    made: list[TableStore] = []

    async def fresh() -> TableStore:
        for old in made:
            await old.close()
        if request.param == "memory":
            made.append(MemoryStore())
        else:
            await flush(redis_url)
            made.append(await RedisStore.connect(redis_url))
        return made[-1]

    try:
        yield fresh
    finally:
        for store in made:
            await store.close()


@pytest.mark.parametrize("codec", [JSON, MSGPACK], ids=["json", "msgpack"])
async def test_a_log_written_before_is_replayed_byte_for_byte(
    monkeypatch: pytest.MonkeyPatch, stores: Stores, codec: Codec
) -> None:
    deal_from(monkeypatch, where("v1-pin", ordinary))
    store = await stores()
    live = await play(store, codec, old_for=ACTIONS)
    old_log = await store.events_since("upgraded", 0)
    assert old_log and all("kind" in e.event for e in old_log)
    from_old = await replayed(store, codec)

    from_new, new_log = await played_today(monkeypatch, stores, codec)
    assert [e.seq for e in new_log] == [e.seq for e in old_log]
    for old, new in zip(from_old, from_new, strict=True):
        assert old.frames == new.frames
    for reader in from_old:
        assert "snapshot" not in kinds(reader)  # replayed, not a snapshot instead
        assert ("events" in kinds(reader)) == (reader.version == 2)
    # Version 1's replayed events are the frames its readers got live.
    for was, now in zip(live, from_old[:5], strict=True):
        sent = [f for f, kind in zip(was.frames, kinds(was), strict=True) if kind == "event"]
        again = [f for f, kind in zip(now.frames, kinds(now), strict=True) if kind == "event"]
        assert again == sent and len(sent) > 50


async def test_a_table_upgraded_mid_deal_is_replayed_as_if_played_today(
    monkeypatch: pytest.MonkeyPatch, stores: Stores
) -> None:
    deal_from(monkeypatch, where("v1-pin", ordinary))
    store = await stores()
    await play(store, MSGPACK, old_for=ACTIONS // 2)
    log = await store.events_since("upgraded", 0)
    assert log and {"kind" in e.event for e in log} == {True, False}  # both forms
    mixed = await replayed(store, MSGPACK)
    today, _ = await played_today(monkeypatch, stores, MSGPACK)
    for old, new in zip(mixed, today, strict=True):
        assert old.frames == new.frames


async def played_today(
    monkeypatch: pytest.MonkeyPatch, stores: Stores, codec: Codec
) -> tuple[list[Raw], list[StoredEvent]]:
    """The same deal played by today's nodes only: the replays, and the log (all form 1)."""
    deal_from(monkeypatch, where("v1-pin", ordinary))
    store = await stores()
    await play(store, codec)
    log = await store.events_since("upgraded", 0)
    assert log and all(e.event["v"] == 1 for e in log)
    return await replayed(store, codec), log
