"""The driver: its failures are retried and reported, and the AI's pace tells nothing."""

from __future__ import annotations

import itertools
import random
import statistics
import time

import pytest

import engine
from protocol import models as m
from server.app import App
from server.node.bots import BotRunner
from server.node.runtime import TableRuntime, TableServices
from server.settings import Settings
from server.store.memory import MemoryStore
from server.table.data import TableData

from ...deal_seeds import petit_sec_first
from ..test_tables import create
from ..wire import Message, WireClient, is_event, play_until


async def test_a_failing_driver_is_retried_then_reported_to_the_players(
    app: App, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(self: BotRunner, *args: object) -> None:
        raise RuntimeError("injected: the bot workers cannot start")

    monkeypatch.setattr(BotRunner, "think", broken)
    client = await WireClient.open(url)
    table_id = await create(client, deals=1, ai_level="expert")
    await client.request({"type": "join", "table_id": table_id, "seat": 3}, "joined")
    await client.send({"type": "start"})
    await client.until(is_event("turn"))  # seat 0 (an AI) is to bid first
    error = await client.until(lambda m: m["type"] == "error", timeout=15)
    assert error["code"] == "internal" and error.get("re") is None
    assert "injected" not in error["message"]
    monkeypatch.undo()  # the workers come back: the retries move the table on
    await client.until(is_event("bid"), timeout=15)


# The pace is the node's (its BotRunner), whatever the store: one store is enough for a
# deal of 54 strong decisions (12-40 s per store on a loaded machine).
@pytest.mark.parametrize("app", ["memory"], indirect=True)
async def test_the_strong_ai_takes_as_long_over_a_forced_card_as_over_a_choice(
    app: App, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    petit_sec_first(monkeypatch, "driver")  # scored before any card is played
    client = await WireClient.open(url)
    table_id = await create(client, deals=1, ai_level="strong")
    await client.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    pooled = app.node.bots.pooled
    await client.send({"type": "start"})
    arrivals: list[tuple[float, Message]] = []

    def record(message: Message) -> bool:
        arrivals.append((time.perf_counter(), message))
        # A deal passed out (or a petit sec) is scored too, without a card: wait for a played one.
        return is_event("score")(message) and message["event"]["sheet"]["status"] == "played"

    await play_until(client, record, random.Random(1), timeout=120)
    # strong decides in the worker processes: three seats, 3 bids and 3 x 18 cards at least.
    assert app.node.bots.pooled - pooled >= 3 + 54
    plays = []  # the time before each AI card
    for (before, _), (at, message) in itertools.pairwise(arrivals):
        if is_event("card")(message) and message["event"]["seat"] != 0:
            plays.append(at - before)
    # 18 cards each: the last trick's cards are forced (one card left), as are others.
    forced, chosen = plays[-3:], plays[:-6]
    assert min(forced) >= 0.6 * statistics.median(chosen), (forced, statistics.median(chosen))


async def test_the_ais_pace_counts_its_thinking_not_the_start_of_its_worker() -> None:
    """The first pooled decision waits for the worker to start (0.3 s here, seconds on a
    loaded machine); taken for thinking, it paced every later move of the node's tables to
    it, and a worker started under load made tables look stuck (tarot soak)."""
    data = TableData(table_id="t1", options=m.TableOptions(ai_level="expert"), created_ms=1)
    runtime = TableRuntime(TableServices.alone(Settings(), MemoryStore()), data)
    state = engine.new_deal(0, bytes(16))
    try:
        start = time.perf_counter()
        await runtime.driver._decide(state, state.to_act, "s1")  # starts the worker
        first = time.perf_counter() - start
        start = time.perf_counter()
        await runtime.driver._decide(state, state.to_act, "s2")
        second = time.perf_counter() - start
        assert second < first / 3, (first, second)
    finally:
        runtime.services.bots.close()
