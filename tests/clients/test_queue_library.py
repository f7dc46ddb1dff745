"""The Python library's quick play (``Client.queue``) and ``tarot bot --table queue``."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator

import pytest

from clients.python import Bot, Client, QueueEnded, play_table
from protocol import models as m
from server.app import App
from server.queue.settings import QueueSettings
from server.settings import Settings


class Taker(Bot):
    """Takes a prise when it may: the deal is played (a table of passers re-deals for ever)."""

    def bid(self, view: m.SeatView, bids: list[m.ContractCode]) -> m.ContractCode:
        return "prise" if "prise" in bids else "pass"


FAST = QueueSettings(fill_three_seconds=1, fill_two_seconds=1, ready_seconds=2, tick_seconds=0.05)


@pytest.fixture
async def quick() -> AsyncIterator[App]:
    running = await App.start(Settings(port=0, lease_ms=600, queue=FAST))
    try:
        yield running
    finally:
        await running.stop(drain_seconds=0)


async def test_four_library_bots_queue_and_play_one_table(quick: App) -> None:
    url = f"ws://127.0.0.1:{quick.port}/"
    clients = [await Client.connect(url) for _ in range(4)]
    seen: list[str] = []
    try:
        states = await asyncio.gather(
            *(
                c.queue(name=f"Bot{i}", on_status=lambda s: seen.append(s.type))
                for i, c in enumerate(clients)
            )
        )
        assert len({s.table_id for s in states}) == 1
        assert sorted(s.seat for s in states if s.seat is not None) == [0, 1, 2, 3]
        assert "match_found" in seen and "queue_status" in seen
        totals = await asyncio.gather(*(play_table(c, Taker()) for c in clients))
        assert all(t == totals[0] for t in totals) and sum(totals[0]) == 0
    finally:
        for c in clients:
            await c.close()


async def test_the_library_says_why_a_search_ended(quick: App) -> None:
    url = f"ws://127.0.0.1:{quick.port}/"
    async with await Client.connect(url) as client:
        status = await client._request(m.Queue(), lambda r: isinstance(r, m.QueueStatus))
        assert isinstance(status, m.QueueStatus) and status.state == "searching"
        await client.cancel_queue()
        state = await client.play_now(name="Solo")
        assert state.seat == 0
    with pytest.raises(QueueEnded):
        raise QueueEnded("not_ready")


async def test_two_tarot_bot_processes_meet_by_quick_play(quick: App) -> None:
    url = f"ws://127.0.0.1:{quick.port}/"
    args = [sys.executable, "-m", "cli.main", "bot", "--server", url, "--table", "queue"]
    procs = [
        await asyncio.create_subprocess_exec(
            *args,
            "--policy",
            "ai:basic",
            "--name",
            f"B{i}",
            "--json",
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for i in range(2)
    ]
    outs = [await asyncio.wait_for(p.communicate(), 120) for p in procs]
    for p, (_out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err.decode()
        assert b"seated by quick play" in err
    assert outs[0][0] and outs[1][0]


async def test_the_terminal_client_queues_and_is_seated(quick: App) -> None:
    """``tarot play --queue casual``: the terminal and a library bot meet (two AI fill)."""
    from clients.terminal import TableApp

    url = f"ws://127.0.0.1:{quick.port}/"
    app = TableApp(url, name="Zoe", codec="json", queue="casual")
    other = await Client.connect(url)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            seated = asyncio.ensure_future(other.queue(name="Bot"))
            async with asyncio.timeout(30):
                while app.state is None or app.state.view is None:
                    await pilot.pause(0.05)
            state = await seated
            assert app.state.table_id == state.table_id
            logged = [line.text for line in app.query_one("#log").lines]  # type: ignore[attr-defined]
            assert any("Searching for players (casual)" in line for line in logged), logged
            assert any("Table found: 2 players and 2 AI" in line for line in logged), logged
            assert any("Seated by quick play" in line for line in logged), logged
    finally:
        await other.close()
