"""A node's own commits come back over pub/sub: dropped in the store (the committer applies
what ``commit`` returned), never lost (an echo of a commit whose reply was lost is heard).

The commit's reply and its echo travel on two connections, so either may come
first; these tests hand the echo to the reader before or without the reply.
"""

from __future__ import annotations

import asyncio

from server.store.redis import keys
from server.store.redis import layout as rt
from server.store.redis.store import RedisStore
from server.table.commits import Update

from .test_store import Heard, events, table


def echo(update: Update, commit: str) -> dict[str, object]:
    """The message the commit script publishes, as the pub/sub reader receives it."""
    table, events = update.table, [e.model_dump_json() for e in update.events]
    data = rt.payload(table.version, commit, table, rt.delta(None, table), events)
    channel = keys.updates(table.table_id).encode()
    return {"type": "smessage", "channel": channel, "data": data}


async def following(redis_url: str) -> tuple[RedisStore, Heard]:
    store = await RedisStore.connect(redis_url)
    heard = Heard()
    await store.create(table())
    await store.subscribe("t1", heard)
    return store, heard


def v1() -> Update:
    return Update(table(version=1, seq=2), events(1, 2))


async def test_an_echo_that_beats_its_reply_is_dropped(redis_url: str) -> None:
    store, heard = await following(redis_url)
    try:
        store.updates.expect("n:1")
        store.updates._handle(echo(v1(), "n:1"))
        assert heard.updates == []  # not parsed: the reply brings the objects
        store.updates.settle("n:1", v1())
        assert heard.updates == []  # the committer applies what commit returned
        store.updates._handle(echo(v1(), "n:1"))  # a late copy changes nothing
        assert heard.updates == []
    finally:
        await store.close()


async def test_the_echo_of_a_commit_whose_reply_was_lost_is_heard(redis_url: str) -> None:
    store, heard = await following(redis_url)
    try:
        store.updates.expect("n:1")
        store.updates._handle(echo(v1(), "n:1"))
        store.updates.settle("n:1", None)  # e.g. a timeout, though Redis applied it
        assert heard.updates == [v1()]
    finally:
        await store.close()


async def test_another_nodes_commit_is_heard_while_ours_are_in_flight(redis_url: str) -> None:
    store, heard = await following(redis_url)
    try:
        store.updates.expect("n:1")
        store.updates._handle(echo(v1(), "other:7"))
        assert heard.updates == [v1()]
        store.updates.settle("n:1", None)  # refused: no echo, nothing more
        assert heard.updates == [v1()]
    finally:
        await store.close()


async def test_real_commits_are_each_returned_and_none_comes_back(redis_url: str) -> None:
    store, heard = await following(redis_url)
    try:
        data, made = table(), []
        for version in range(1, 21):
            data = data.model_copy(update={"version": version, "seq": 2 * version})
            made.append(await store.commit(data, events(2 * version - 1, 2)))
        await asyncio.sleep(0.2)  # any echo is back by now
        assert [u.table.version for u in made] == list(range(1, 21))
        assert heard.updates == [] and store.updates.in_flight == {}
    finally:
        await store.close()
