"""Messages answered by their feature's own module: the lobby list with its online count,
chat and rematch, quick play, duplicate events (all but ``list_tables`` protocol 2's).

``connection.Connection`` hands every message its own ``match`` does not take to
``handle``; a feature adds its messages to ``HANDLERS`` here, not a branch there.
Each handler takes the connection as the small ``Protocol`` its module declares.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from protocol import models as m

from . import chat_requests, lobby_requests, queue_requests
from .duplicate_requests import duplicate_request

Handler = Callable[[Any, Any], Awaitable[None]]
HANDLERS: dict[type[m.Model], Handler] = {
    m.ListTables: lobby_requests.handle,  # its ``tables``, then (version 2) ``online``
    m.Chat: chat_requests.handle,
    m.Mute: chat_requests.handle,
    m.Unmute: chat_requests.handle,
    m.Block: chat_requests.handle,
    m.Report: chat_requests.handle,
    m.Rematch: chat_requests.handle,
    m.Queue: queue_requests.handle,
    m.CancelQueue: queue_requests.handle,
    m.Ready: queue_requests.handle,
    m.PlayNow: queue_requests.handle,
    m.DuplicateList: duplicate_request,
    m.DuplicateEnter: duplicate_request,
    m.DuplicatePlay: duplicate_request,
    m.DuplicateShow: duplicate_request,
}


async def handle(connection: object, message: m.Model) -> None:
    """Answer ``message`` by its feature's handler (every client type has one somewhere:
    ``tests/server/net/test_feature_requests.py``)."""
    await HANDLERS[type(message)](connection, message)
