"""Numbers past 64 bits in a request are refused as ``invalid_message`` (the probe's
defect 7): they reached SQLite (``OverflowError: Python int too large to convert to
SQLite INTEGER``) and the client was told ``internal``. Every id or number a request
names something stored by is bounded by the protocol's one type (``StoredId``,
``StoredIndex``: at most 2**53 - 1, what JavaScript reads exactly)."""

from __future__ import annotations

from pathlib import Path

from .players import Player, history_app, new_event

BIG = 2**63
JS_MAX = 2**53 - 1


async def test_numbers_past_64_bits_are_invalid_messages_not_internal(tmp_path: Path) -> None:
    async with history_app(tmp_path) as app:
        url = f"ws://127.0.0.1:{app.port}/"
        event_id = await new_event(app, 1)
        player = await Player.sign_up(url, "Huge", 1)
        for number in (BIG, 2**64, 10**30, JS_MAX + 1):
            asked = [
                {"type": "duplicate_show", "event_id": number},
                {"type": "duplicate_enter", "event_id": number},
                {"type": "duplicate_play", "event_id": number},
                {"type": "duplicate_show", "event_id": event_id, "entry": number},
                {"type": "review_stored_deal", "table_id": "abc", "deal_number": number},
                {"type": "review_deal", "deal_number": number},
                {"type": "report", "seq": number},
                {"type": "resume", "table_id": "abc", "last_seq": number},
            ]
            for message in asked:
                assert await player.refused(message) == "invalid_message", message
        # The largest number allowed is looked up as any other: not found, not internal.
        assert await player.refused({"type": "duplicate_show", "event_id": JS_MAX}) != "internal"
        # The node still answers the player, and its event is untouched.
        await player.ask({"type": "duplicate_enter", "event_id": event_id}, "duplicate_entered")
