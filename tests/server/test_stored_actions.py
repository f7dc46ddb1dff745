"""What the store holds of a deal's actions: the game record's entries (bid names, card
codes; engine.action_entry), not wire messages, and a table stored the old way (each
action the wire's ``{"seat": s, "action": {"kind": ...}}``) still loads and plays on
when a node is upgraded mid-deal (docs/DEPLOY.md, "What Redis holds")."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis

import engine
from protocol.convert import action_model
from server.app import App
from server.settings import Settings
from server.store.redis import keys
from server.store.redis.store import read_table

from ..deal_seeds import deal_from, ordinary, where
from .conftest import REDIS_TEST_URL, flush
from .wire import Message, WireClient, is_event, play_until

pytestmark = pytest.mark.redis


async def start_node() -> App:
    return await App.start(Settings(port=0, lease_ms=600, redis_url=REDIS_TEST_URL))


@pytest.fixture
async def redis() -> AsyncIterator[Redis]:
    await flush(REDIS_TEST_URL)
    client: Redis = Redis.from_url(REDIS_TEST_URL)
    try:
        yield client
    finally:
        await client.aclose()
        await flush(REDIS_TEST_URL)


async def stored(redis: Redis, table_id: str) -> dict[str, Any]:
    table = await read_table(redis, table_id)
    assert table is not None
    return table.model_dump(mode="json")


async def stored_actions(redis: Redis, table_id: str) -> list[dict[str, Any]]:
    """The deal's actions as Redis holds them (one JSON each)."""
    return [json.loads(raw) for raw in await redis.lrange(keys.actions(table_id), 0, -1)]


async def store_the_old_way(redis: Redis, table_id: str, data: dict[str, Any]) -> None:
    """What a node of before left in Redis: the whole JSON in one field, no parts."""
    await redis.hset(keys.state(table_id), "data", json.dumps(data))
    await redis.hdel(keys.state(table_id), "head", "commits", "deadline")
    await redis.delete(keys.actions(table_id))


async def first_trick_on_a_node(table_id_out: list[str]) -> tuple[App, list[WireClient]]:
    app = await start_node()
    url = f"ws://127.0.0.1:{app.port}/"
    host = await WireClient.open(url)
    created = await host.request({"type": "create_table", "options": {"deals": 1}}, "table_created")
    table_id = created["table"]["table_id"]
    table_id_out.append(table_id)
    players = []
    for seat in range(4):
        player = await WireClient.open(url)
        await player.request({"type": "join", "table_id": table_id, "seat": seat}, "joined")
        players.append(player)
    # The fourth seat taken, the deal starts.
    await asyncio.gather(
        *(play_until(p, is_event("trick"), random.Random(i)) for i, p in enumerate(players))
    )
    return app, players


def wire_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """How the server stored an action before: the wire model of it."""
    action = engine.entry_action(entry)
    return {"seat": action.seat, "action": action_model(action).model_dump(mode="json")}


async def test_a_deals_actions_are_stored_as_record_entries(
    redis: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_from(monkeypatch, where("stored-entries", ordinary))
    ids: list[str] = []
    app, _ = await first_trick_on_a_node(ids)
    try:
        actions = await stored_actions(redis, ids[0])
    finally:
        await app.stop(drain_seconds=0)
    kinds = {key for entry in actions for key in entry if key != "seat"}
    assert kinds >= {"bid", "play"} and kinds <= {"bid", "discard", "chelem", "poignee", "play"}
    plays = [entry["play"] for entry in actions if "play" in entry]
    assert len(plays) >= 4 and all(isinstance(code, str) for code in plays)
    assert all(engine.action_entry(engine.entry_action(e)) == e for e in actions)


async def test_a_table_stored_with_wire_actions_loads_and_plays_on_after_an_upgrade(
    redis: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_from(monkeypatch, where("stored-old-way", ordinary))
    ids: list[str] = []
    old_node, players = await first_trick_on_a_node(ids)
    table_id = ids[0]
    tokens = [(p.token, p.last_seq) for p in players]
    await old_node.stop(drain_seconds=0)
    # What a node of before would have left in Redis: the same table, its actions as wire.
    data = await stored(redis, table_id)
    entries = data["deal"]["actions"]
    data["deal"]["actions"] = [wire_entry(e) for e in entries]
    assert all("action" in e for e in data["deal"]["actions"])
    await store_the_old_way(redis, table_id, data)

    node = await start_node()
    try:
        url = f"ws://127.0.0.1:{node.port}/"
        resumed = []
        for token, last_seq in tokens:
            client = await WireClient.open(url)
            client.last_seq = last_seq
            await client.request({"type": "resume", "token": token, "last_seq": last_seq}, "joined")
            resumed.append(client)
        scores: list[Message] = list(
            await asyncio.gather(
                *(
                    play_until(p, is_event("score"), random.Random(10 + i))
                    for i, p in enumerate(resumed)
                )
            )
        )
        record = await resumed[0].until(is_event("record"))
        now = await stored_actions(redis, table_id)
        assert not await redis.hexists(keys.state(table_id), "data")  # rewritten in parts
    finally:
        await node.stop(drain_seconds=0)
    assert scores[0]["event"]["sheet"]["status"] == "played"
    deal = engine.load_record(record["event"]["record"])  # the whole deal replays legally
    assert deal.is_over
    # The old entries were read as they were meant, and what was added is in the new form.
    assert now[: len(entries)] == entries and len(now) > len(entries)
    assert all("action" not in e for e in now)
