"""A robot entrant who leaves a deal under way: the AI finishes it, the result is theirs.
The daily robot event (``duplicate_daily_deals``) and the closing round."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from server.duplicate import DuplicateEvent
from server.history import create_event, stored_event

from ..conftest import REDIS_TEST_URL, flush
from .players import SEED, Player, history_app, new_event


@pytest.mark.parametrize("store", ["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def test_a_deal_left_under_way_is_finished_by_the_ai_for_the_entrant(
    tmp_path: Path, store: str
) -> None:
    redis_url = REDIS_TEST_URL if store == "redis" else None
    if redis_url is not None:
        await flush(redis_url)
    async with history_app(tmp_path, redis_url=redis_url) as app:
        url = f"ws://127.0.0.1:{app.port}/"
        event_id = await new_event(app, 1)
        ann = await Player.sign_up(url, "Ann", 3)
        entered = await ann.ask(
            {"type": "duplicate_enter", "event_id": event_id}, "duplicate_entered"
        )
        await ann.ask({"type": "duplicate_play", "event_id": event_id}, "joined")
        await ann.ask({"type": "leave"}, "left")  # before a single action of hers
        show = {
            "type": "duplicate_show",
            "event_id": event_id,
            "entry": entered["event"]["entry_id"],
        }
        async with asyncio.timeout(60):
            while not (results := (await ann.ask(show, "duplicate_results"))["results"]):
                await asyncio.sleep(0.2)
        (result,) = results
        assert result["deal"] == 0 and result["seat"] == 0 and result["table_id"] == ann.table_id
        play = {"type": "duplicate_play", "event_id": event_id}
        assert await ann.refused(play) == "event_played"


async def test_the_daily_event_is_made_once_and_closed_events_are_scored(tmp_path: Path) -> None:
    async with history_app(tmp_path, duplicate_daily_deals=3) as app:
        duplicates = app.node.duplicates
        assert duplicates is not None
        await duplicates.stop()  # its rounds, every minute from the start: the test's alone
        engine = duplicates.engine
        now = datetime.now(UTC)
        past = DuplicateEvent(
            "Yesterday", SEED, 2, now - timedelta(days=2), now - timedelta(days=1)
        )
        closed_id = await create_event(engine, past)
        await duplicates.run_round(now)
        await duplicates.run_round(now)  # again, or on another node: not made twice
        url = f"ws://127.0.0.1:{app.port}/"
        ann = await Player.sign_up(url, "Ann", 1)
        events = (await ann.ask({"type": "duplicate_list"}, "duplicate_events"))["events"]
        daily = [e for e in events if e["name"] == f"Daily {now.date().isoformat()}"]
        assert len(daily) == 1 and daily[0]["deals"] == 3 and daily[0]["phase"] == "open"
        assert (
            daily[0]["kind"] == "robot" and daily[0]["closes_ms"] - daily[0]["opens_ms"] == 86400000
        )
        assert (await stored_event(engine, closed_id)).scored_at is not None
