"""The memory store's claims (``MemoryShared.claim``): one holder per name until it is let
go or runs out, and a claim run out is forgotten, whether or not its name is asked again
(one per entrant of each duplicate event: kept for ever, the process grew with them)."""

from __future__ import annotations

import asyncio

from server.store.shared import MemoryShared


async def test_a_claim_holds_its_name_until_it_runs_out() -> None:
    shared = MemoryShared()
    assert await shared.claim("event:1", "table-a", 60_000) == "table-a"
    assert await shared.claim("event:1", "table-b", 60_000) == "table-a"
    await shared.release("event:1", "table-b")  # not its holder: kept
    assert await shared.claim("event:1", "table-b", 60_000) == "table-a"
    await shared.release("event:1", "table-a")
    assert await shared.claim("event:1", "table-b", 60_000) == "table-b"


async def test_run_out_claims_are_forgotten() -> None:
    shared = MemoryShared()
    for i in range(100):
        await shared.claim(f"event:{i}", "table", 10)
    await shared.claim("kept", "table", 60_000)
    await shared.release("kept", "table")
    await asyncio.sleep(0.05)
    assert await shared.claim("other", "table", 60_000) == "table"
    # What the store holds: the one claim not run out (no public reading of it).
    assert list(shared._claims) == ["other"]
    assert await shared.claim("event:1", "table-b", 60_000) == "table-b"
