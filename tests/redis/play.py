"""Playing through server nodes: table set-up, seats, and looking into a node or Redis."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

from redis.asyncio import Redis

from server.store.redis import keys

from ..server.wire import Message, WireClient
from .servers import NodeProcess


async def create_table(url: str, **options: object) -> str:
    creator = await WireClient.open(url)
    created = await creator.request(
        {"type": "create_table", "options": {"deals": 1, **options}}, "table_created"
    )
    await creator.close()
    return str(created["table"]["table_id"])


async def seat(url: str, table_id: str, seat: int, codec: str = "json") -> WireClient:
    client = await WireClient.open(url, codec)
    await client.request({"type": "join", "table_id": table_id, "seat": seat}, "joined")
    return client


async def watch(url: str, table_id: str) -> WireClient:
    client = await WireClient.open(url)
    await client.request({"type": "watch", "table_id": table_id}, "watching")
    return client


def events_by_seq(client: WireClient) -> dict[int, Message]:
    return {m["seq"]: m["event"] for m in client.received if m["type"] == "event"}


def health(node: NodeProcess) -> int:
    """The status of the node's ``GET /healthz``."""
    try:
        with urllib.request.urlopen(f"{node.http}/healthz", timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as e:
        return e.code


def metric(node: NodeProcess, name: str) -> float:
    with urllib.request.urlopen(f"{node.http}/metrics", timeout=5) as response:
        body = response.read().decode()
    return sum(float(line.split()[-1]) for line in body.splitlines() if line.startswith(name + " "))


async def lease_holder(redis_url: str, table_id: str) -> str:
    """The id of the node running the table's background work (waits for one)."""
    client: Redis = Redis.from_url(redis_url)
    try:
        async with asyncio.timeout(15):
            while (holder := await client.get(keys.lease(table_id))) is None:
                await asyncio.sleep(0.05)
        return holder.decode() if isinstance(holder, bytes) else str(holder)
    finally:
        await client.aclose()


async def move(client: WireClient, node: NodeProcess) -> WireClient:
    """Resume the client's seat on ``node``, from its last event, and close the old connection."""
    moved = await WireClient.open(node.url)
    moved.last_seq = client.last_seq
    await client.close()
    await moved.request(
        {"type": "resume", "token": client.token, "last_seq": client.last_seq}, "joined"
    )
    return moved
