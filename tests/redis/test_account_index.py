"""The account index (``server.store.account_index``): a sign-in reads the tables where
the account was seated, not every table (issue 25: at 10,000 tables the sign-in's read
of them all passed the store's time-out and was refused, as the lobby's had been)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from clients.python import Client
from protocol import models as m
from server.app import App
from server.history import accounts
from server.node.archive import Archive
from server.settings import Settings
from server.store.base import StaleVersion, TableStore
from server.store.memory import MemoryStore
from server.store.redis import keys
from server.store.redis.store import RedisStore
from server.table.data import SeatData, TableData

from .servers import RedisServer
from .test_lobby_index import changed, table, table_reads

PASSWORD = "correct horse battery"


def seated(data: TableData, seat: int, account_id: int | None) -> list[SeatData]:
    human = SeatData(occupant="human", name=f"p{account_id}", account_id=account_id)
    return data.with_seat(seat, **human.model_dump())


@pytest.fixture(params=["memory", "redis"])
async def store(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[TableStore]:
    made: TableStore = (
        MemoryStore() if request.param == "memory" else await RedisStore.connect(redis_url)
    )
    try:
        yield made
    finally:
        await made.close()


async def held(store: TableStore, account_id: int) -> list[str]:
    return [t.table_id for t in await store.account_tables(account_id)]


async def test_the_tables_an_account_sits_at_are_found_from_its_index(store: TableStore) -> None:
    at_creation = table("a1", 1)
    await store.create(at_creation.model_copy(update={"seats": seated(at_creation, 0, 7)}))
    later = table("a2", 2)
    await store.create(later)
    await store.create(table("other", 3))
    assert await held(store, 7) == ["a1"]
    await store.commit(changed(later, seats=seated(later, 3, 7)), [])
    assert await held(store, 7) == ["a1", "a2"]
    assert await held(store, 8) == []


async def test_a_table_left_finished_or_gone_leaves_the_accounts_index(store: TableStore) -> None:
    tables = [table(f"t{i}", i) for i in range(3)]
    for data in tables:
        await store.create(data.model_copy(update={"seats": seated(data, 1, 7)}))
    left, finished, gone = [await store.load(f"t{i}") for i in range(3)]
    assert left is not None and finished is not None and gone is not None
    empty = left.with_seat(1, occupant="empty", account_id=None)
    await store.commit(changed(left, seats=empty), [])
    await store.commit(changed(finished, status="finished"), [])
    await store.delete(gone.table_id)
    assert await held(store, 7) == []
    if isinstance(store, RedisStore):  # read once, they are dropped from the index
        assert await store.client.smembers(keys.account_tables(7)) == set()


async def test_a_seat_whose_write_failed_is_not_held(store: TableStore) -> None:
    """The index is written before the table: a write refused leaves an extra id, which a
    read checks against the table and drops."""
    data = table("t1", 1)
    await store.create(data)
    await store.commit(changed(data, name="renamed"), [])
    with pytest.raises(StaleVersion):
        await store.commit(changed(data, seats=seated(data, 2, 7)), [])
    assert await held(store, 7) == []


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2id with small parameters (the real hash and checks)."""
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


async def test_a_sign_in_reads_the_accounts_tables_not_every_table(
    own_redis: RedisServer, tmp_path: Path
) -> None:
    store = await RedisStore.connect(own_redis.url)
    try:
        for i in range(0, 300, 100):
            await asyncio.gather(*(store.create(table(f"t{j:03d}", j)) for j in range(i, i + 100)))
    finally:
        await store.close()
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    settings = Settings(port=0, redis_url=own_redis.url, next_deal_seconds=30)
    node = await App.start(settings, archive=archive)
    url = f"ws://127.0.0.1:{node.port}/"
    try:
        async with await Client.connect(url) as first:
            token = await first.sign_up("Alice", PASSWORD)
            await first.join("t150", seat=2)
        before = await table_reads(own_redis.url)
        async with await Client.connect(url, session=token) as again:
            assert again.held_seats == [m.HeldSeat(table_id="t150", seat=2)]
        reads = await table_reads(own_redis.url) - before
    finally:
        await node.stop(drain_seconds=0)
    assert reads < 30  # one table read, and the node's own background work; was 300


async def test_seats_taken_before_the_index_are_found_once_a_node_of_this_version_starts(
    redis_url: str,
) -> None:
    """An upgrade: tables an older node stored (no account index) enter the index once."""
    old = await RedisStore.connect(redis_url)
    try:
        data = table("t1", 1)
        await old.create(data.model_copy(update={"seats": seated(data, 0, 7)}))
        await old.client.delete(keys.account_tables(7), keys.lobby_list("accounts-indexed"))
        assert await held(old, 7) == []
    finally:
        await old.close()
    new = await RedisStore.connect(redis_url)
    try:
        assert await held(new, 7) == ["t1"]
    finally:
        await new.close()
