"""The server ``tarot play`` runs in its own process when no ``--server`` is given.

The terminal client knows servers by URL only (clients import nothing above
them); this module starts one of ours on a free port of 127.0.0.1 for it
(``clients.terminal.local_server.StartServer``), with the memory store and
``ai_pause`` seconds before each AI move, and stops it when the client quits.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from server.app import App
from server.settings import Settings


class PlayServer:
    """Our server in this process, on a free port of 127.0.0.1."""

    def __init__(self, app: App) -> None:
        self.app = app

    @classmethod
    async def start(cls, ai_pause: float) -> PlayServer:
        return cls(await App.start(Settings(port=0, ai_pause_seconds=ai_pause)))

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.app.port}/"

    async def stop(self) -> None:
        await self.app.stop(drain_seconds=0)


def play_server(ai_pause: float) -> Callable[[], Awaitable[PlayServer]]:
    """What ``TableApp(local_server=...)`` calls to start the server (when it connects)."""

    async def start() -> PlayServer:
        return await PlayServer.start(ai_pause)

    return start
