"""A server the terminal runs itself, as the terminal sees it: a URL to connect to, and a stop.

``tarot play`` without ``--server`` hands ``TableApp`` a way to start one
(``cli/play_server.py`` starts our server in the same process); the client
itself knows servers only by their URL, as every client does, and imports
nothing of the server.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol


class LocalServer(Protocol):
    """A running server the terminal started, and stops when it quits."""

    @property
    def url(self) -> str: ...

    async def stop(self) -> None: ...


StartServer = Callable[[], Awaitable[LocalServer]]  # starts one, once it answers
