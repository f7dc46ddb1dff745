"""The spectator count is told live (docs/PROTOCOL.md, section 17): a ``spectators``
message to every version 2 follower when a spectator arrives or leaves, nothing new
to a version 1 follower (tests/server/node/test_v1_frames.py pins its bytes)."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher

from server.app import App
from server.history import accounts

from .social_wire import V2Client, node, player, settled, table_of, url_of
from .wire import WireClient

__all__ = ["node"]


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


async def count_told(client: WireClient) -> int:
    told = await client.until(lambda m: m["type"] == "spectators")
    assert set(told) == {"type", "table_id", "count"}
    return int(told["count"])


async def test_players_are_told_when_spectators_arrive_and_leave(node: App) -> None:
    anna = await player(node, "Anna")
    table_id = await table_of(anna)
    carl = await V2Client.open(url_of(node))
    snapshot = await carl.request({"type": "watch", "table_id": table_id}, "snapshot")
    assert snapshot["table"]["spectators"] == 1
    assert await count_told(anna) == 1
    assert await count_told(carl) == 1  # after its snapshot: the same count
    old = await WireClient.open(url_of(node))  # version 1
    await old.request({"type": "watch", "table_id": table_id}, "snapshot")
    assert await count_told(anna) == 2
    assert await count_told(carl) == 2
    await carl.close()
    assert await count_told(anna) == 1
    await old.request({"type": "leave"}, "left")
    assert await count_told(anna) == 0
    await settled(anna, "after")
    assert [m["count"] for m in anna.received if m["type"] == "spectators"] == [1, 2, 1, 0]


async def test_a_version_1_follower_is_not_told(node: App) -> None:
    anna = await player(node, "Anna")
    table_id = await table_of(anna)
    old = await WireClient.open(url_of(node))
    await old.request({"type": "watch", "table_id": table_id}, "snapshot")
    carl = await V2Client.open(url_of(node))
    await carl.request({"type": "watch", "table_id": table_id}, "snapshot")
    assert [await count_told(anna), await count_told(anna)] == [1, 2]
    await carl.close()
    assert await count_told(anna) == 1
    await settled(old, "v1")
    assert not [m for m in old.received if m["type"] == "spectators"]
