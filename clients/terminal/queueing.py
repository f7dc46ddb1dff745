"""Quick play in the terminal (``tarot play --queue``): the search and the ready check,
said in the log (once per change) and the prompt, then the seat the server hands over."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.widgets import Static

from clients.python import Client, TableState
from clients.python.printable import printable
from protocol import models as m


async def queue_here(app: Any, client: Client) -> None:
    """``TableApp``'s quick play (``app.queue``, its mode): its log and prompt say it."""

    def show(line: str) -> None:
        with contextlib.suppress(Exception):  # before mount or after exit
            app.query_one("#prompt", Static).update(Text(printable(line)))

    await seat_by_queue(client, app.queue, app.deals, app.player_name, app.log_line, show)


async def seat_by_queue(
    client: Client,
    mode: m.QueueMode,
    deals: int,
    name: str,
    say: Callable[[str], None],
    show: Callable[[str], None],
) -> TableState:
    """Queue, confirm the ready check; ``say`` logs a line, ``show`` sets the prompt."""
    said: list[str] = []

    def status(message: m.QueueStatus | m.MatchFound) -> None:
        if isinstance(message, m.MatchFound):
            line = f"Table found: {message.humans} players and {message.ai} AI. Ready."
        elif message.state == "searching":
            line = f"Searching for players ({mode})... {message.searching} searching."
        else:
            return
        if not said or said[-1].split("...")[0] != line.split("...")[0]:
            say(line)
        said.append(line)
        show(line)

    state = await client.queue(mode, deals, name, on_status=status)
    say(f"Seated by quick play at table {state.table_id}, seat {state.seat}.")
    return state
