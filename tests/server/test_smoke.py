"""The shortest path through the server: one human against 3 AI plays a whole deal."""

from __future__ import annotations

import random

import pytest

from server.app import App

from .wire import WireClient, is_event, play_until


async def test_human_plays_a_full_deal_against_three_ai(url: str) -> None:
    client = await WireClient.open(url)
    created = await client.request(
        {"type": "create_table", "options": {"deals": 1}}, "table_created"
    )
    table_id = created["table"]["table_id"]
    await client.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    await client.until(lambda m: m["type"] == "snapshot")
    await client.send({"type": "start"})
    over = await play_until(client, is_event("table_over"), random.Random(1))
    assert len(over["event"]["totals"]) == 4
    assert sum(over["event"]["totals"]) == 0
    await client.close()


@pytest.mark.timeout(180)
@pytest.mark.parametrize("level", ["expert"])  # strong: its deal is test_driver's (its pace)
async def test_search_and_expert_ai_play_a_deal_from_the_process_pool(
    app: App, url: str, level: str
) -> None:
    """Each table chooses its AI level; expert and strong decide in worker processes."""
    client = await WireClient.open(url)
    created = await client.request(
        {"type": "create_table", "options": {"deals": 1, "ai_level": level}}, "table_created"
    )
    assert created["table"]["options"]["ai_level"] == level
    table_id = created["table"]["table_id"]
    await client.request({"type": "join", "table_id": table_id, "seat": 2}, "joined")
    before = app.node.bots.pooled
    await client.send({"type": "start"})
    over = await play_until(client, is_event("table_over"), random.Random(2), timeout=150)
    assert sum(over["event"]["totals"]) == 0
    # Three AI seats: at least 3 bids and 3 x 18 cards, all decided through the pool.
    assert app.node.bots.pooled - before >= 3 + 54
