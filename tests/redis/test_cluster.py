"""The store on a Redis Cluster (three masters): a deal across two nodes, one slot per table."""

from __future__ import annotations

import asyncio
import random

from redis.asyncio.cluster import RedisCluster

from server.store.redis import keys
from server.store.redis.store import RedisStore

from ..server.wire import is_event, play_until
from .conftest import NodeFactory
from .play import create_table, seat, watch
from .servers import Cluster


async def test_four_players_on_two_nodes_play_a_deal_on_a_redis_cluster(
    cluster: Cluster, nodes: NodeFactory
) -> None:
    a, b = nodes(cluster.url, "a"), nodes(cluster.url, "b")
    tables = [await create_table((a, b)[i % 2].url) for i in range(6)]  # over every shard
    table_id = tables[0]
    spectator = await watch(b.url, table_id)
    players = [await seat((a, b)[i % 2].url, table_id, i) for i in range(4)]
    ends = await asyncio.gather(
        *(play_until(p, is_event("table_over"), random.Random(i)) for i, p in enumerate(players)),
        spectator.until(is_event("table_over"), timeout=60),
    )
    assert len({tuple(end["event"]["totals"]) for end in ends}) == 1
    client = RedisCluster.from_url(cluster.url)
    try:
        await client.initialize()
        names = [keys.state(table_id), keys.events(table_id)]
        owners = {client.get_node_from_key(name).name for name in names}  # type: ignore[union-attr]
        assert len(owners) == 1
        assert await client.exists(*names) == 2
        lobby = {m.decode() for m in await client.zrange(keys.LOBBY, 0, -1)}  # type: ignore[union-attr]
        assert lobby == set(tables)
        shards = {client.get_node_from_key(keys.state(t)).name for t in tables}  # type: ignore[union-attr]
        assert len(shards) > 1
    finally:
        await client.aclose()


async def test_leases_over_every_shard_are_renewed_at_once(cluster: Cluster) -> None:
    store = await RedisStore.connect(cluster.url)
    try:
        ids = [f"t{i}" for i in range(12)]
        client = store.client
        assert isinstance(client, RedisCluster)
        assert len({client.get_node_from_key(keys.lease(t)).name for t in ids}) > 1  # type: ignore[union-attr]
        assert await store.acquire_leases(ids, "a", 60_000) == [True] * 12
        assert await store.acquire_leases(ids, "b", 60_000) == [False] * 12
        assert await store.acquire_leases(ids, "a", 60_000) == [True] * 12
    finally:
        await store.close()
