"""A Python client for the ``tarot`` protocol (version 2): connect, sit, play, write bots.

    from clients.python import Bot, Client, play_table

    client = await Client.connect("ws://127.0.0.1:8765/")
    created = await client.create_table()
    await client.join(created.table.table_id)
    await client.start()
    totals = await play_table(client, Bot())

Messages and their fields are the protocol's models (``protocol.models``);
docs/CLIENTS.md walks through the library and writing a bot.
"""

from protocol.convert import engine_view

from .bot import Bot, play_table
from .client import Client, WireAction
from .connection import CodecName, TarotSocket
from .errors import (
    BadURL,
    ClientError,
    ConnectionLost,
    Disconnected,
    QueueEnded,
    Refused,
    Unreachable,
)
from .state import TableState

__all__ = [
    "BadURL",
    "Bot",
    "Client",
    "ClientError",
    "CodecName",
    "ConnectionLost",
    "Disconnected",
    "QueueEnded",
    "Refused",
    "TableState",
    "TarotSocket",
    "Unreachable",
    "WireAction",
    "engine_view",
    "play_table",
]
