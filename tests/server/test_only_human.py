"""A table whose only human goes mid-deal does not stall (PROTOCOL.md, section 14, "No
deal without a human"): dropped, the AI plays the seat once the grace period is over,
the deal ends and the table waits for the player; left for good, the table is over."""

from __future__ import annotations

import pytest

from server.app import App
from server.settings import Settings
from server.store.base import StoreUnavailable
from server.store.memory import MemoryStore
from server.table.commits import Update
from server.table.data import StoredEvent, TableData

from ..deal_seeds import deal_from, ordinary, where
from .test_tables import create
from .wire import WireClient, is_event


async def seated_alone(url: str, **options: object) -> tuple[WireClient, WireClient, str]:
    """One human at seat 0 with three AI, a watcher; the human has bid (not all passes)."""
    player = await WireClient.open(url)
    table_id = await create(player, deals=2, **options)
    await player.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    watcher = await WireClient.open(url)
    await watcher.request({"type": "watch", "table_id": table_id}, "watching")
    await player.send({"type": "start"})
    turn = await player.until(lambda m: m["type"] == "your_turn", timeout=30)
    bids = turn["legal"]["bids"]
    contract = next((b for b in bids if b != "pass"), "pass")  # a pass follows a bid
    act = {"type": "act", "action": {"kind": "bid", "contract": contract}, "id": 1}
    await player.request(act, "ack")
    return player, watcher, table_id


async def test_the_only_human_dropping_mid_deal_is_played_for_then_the_table_waits(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_from(monkeypatch, where("only-human", ordinary))
    player, watcher, _ = await seated_alone(url, grace_seconds=0.2)
    token = player.token
    await player.close()
    away = await watcher.until(lambda m: is_event("seat")(m) and m["event"]["seat"]["seat"] == 0)
    assert away["event"]["seat"]["connected"] is False
    score = await watcher.until(is_event("score"), timeout=60)  # the AI played the deal out
    assert score["event"]["sheet"]["status"] == "played"
    # Away past the grace period the player counts as ready, but nobody is there to play
    # for: no deal starts (it would start at once otherwise, the AI pausing 0 s).
    with pytest.raises(TimeoutError):
        await watcher.until(is_event("deal_started"), timeout=0.5)
    back = await WireClient.open(url)
    await back.request({"type": "resume", "token": token}, "joined")
    await back.send({"type": "next_deal"})
    started = await watcher.until(is_event("deal_started"), timeout=10)
    assert started["event"]["deal_number"] == 2
    await back.until(lambda m: m["type"] == "your_turn", timeout=30)


async def test_the_only_human_leaving_mid_deal_ends_the_table(url: str) -> None:
    player, watcher, table_id = await seated_alone(url)
    await player.request({"type": "leave", "id": 2}, "left")
    over = await watcher.until(is_event("table_over"), timeout=10)
    assert over["table_id"] == table_id
    lobby = await WireClient.open(url)
    await lobby.send({"type": "join", "table_id": table_id})
    refused = await lobby.until(lambda m: m["type"] == "error")
    assert refused["code"] == "table_full", refused  # it is finished


class Blinking(MemoryStore):
    """The store fails the next ``failures`` commits (a Redis blip), then works again."""

    def __init__(self) -> None:
        super().__init__()
        self.failures = 0

    async def commit(self, table: TableData, events: list[StoredEvent]) -> Update:
        if self.failures:
            self.failures -= 1
            raise StoreUnavailable("redis did not answer within 2.0s")
        return await super().commit(table, events)


async def test_a_drop_the_store_failed_to_record_is_recorded_once_it_answers() -> None:
    store = Blinking()
    app = await App.start(Settings(port=0, lease_ms=600), store=store)
    try:
        url = f"ws://127.0.0.1:{app.port}/"
        player = await WireClient.open(url)
        table_id = await create(player, deals=1, grace_seconds=0.2)
        await player.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
        watcher = await WireClient.open(url)
        await watcher.request({"type": "watch", "table_id": table_id}, "watching")
        await player.send({"type": "start"})
        await player.until(lambda m: m["type"] == "your_turn", timeout=30)
        store.failures = 2  # the drop's commit fails, and its first retry
        await player.close()
        # Before, the seat stayed "connected" for good: nobody bid for it, ever.
        away = await watcher.until(
            lambda m: is_event("seat")(m) and m["event"]["seat"]["seat"] == 0, timeout=10
        )
        assert away["event"]["seat"]["connected"] is False
        await watcher.until(lambda m: is_event("bid")(m) and m["event"]["seat"] == 0, timeout=10)
    finally:
        await app.stop(drain_seconds=0)
