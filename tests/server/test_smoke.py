"""The shortest path through the server: one human against 3 AI plays a whole deal."""

from __future__ import annotations

import random

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
