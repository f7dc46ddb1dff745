"""One WebSocket to a tarot server: the handshake, typed messages in and out.

The codec is chosen by subprotocol (``tarot.v2.msgpack`` by default, or
``tarot.v2.json``); every frame is decoded and validated into a protocol model,
and version 2's folded frames are unfolded into the messages version 1 sends
(``unfold.py``): an ``event`` each, then ``your_turn``, then ``ack``.
This layer does not reconnect: ``client.Client`` does, over new connections.
"""

from __future__ import annotations

from collections import deque
from typing import Literal

from pydantic import BaseModel
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Subprotocol

from protocol import JSON, MSGPACK, Codec, ServerMessage
from protocol import models as m

from .errors import Refused
from .unfold import unfold

CodecName = Literal["msgpack", "json"]
CLIENT_NAME = "cardavia-tarot-python/0.1"
SPOKEN_VERSION = 2


def codec_named(name: CodecName) -> Codec:
    if name == "msgpack":
        return MSGPACK
    if name == "json":
        return JSON
    raise ValueError(f"unknown codec {name!r}; expected msgpack or json")


class TarotSocket:
    """An open, greeted connection: ``await TarotSocket.open(url)``."""

    def __init__(self, ws: ClientConnection, codec: Codec, welcome: m.Welcome) -> None:
        self.ws = ws
        self.codec = codec
        self.welcome = welcome
        self._unfolded: deque[ServerMessage] = deque()  # the rest of a folded frame

    @classmethod
    async def open(
        cls,
        url: str,
        codec: CodecName = "msgpack",
        client: str = CLIENT_NAME,
        session: str | None = None,
    ) -> TarotSocket:
        """Connect, say hello (signed in with ``session``, a ``signed_in`` token, if given),
        and wait for the welcome (``Refused`` if refused: ``bad_session`` for a session
        signed out or expired)."""
        chosen = codec_named(codec)
        subprotocol = f"tarot.v{SPOKEN_VERSION}.{chosen.name}"
        ws = await connect(url, subprotocols=[Subprotocol(subprotocol)], open_timeout=10)
        if ws.subprotocol != subprotocol:
            await ws.close()
            raise Refused("unsupported_version", f"the server did not accept {subprotocol}")
        hello = m.Hello(protocol=SPOKEN_VERSION, client=client, session=session)
        await ws.send(chosen.encode(hello))
        reply = chosen.decode_server(await ws.recv())
        if isinstance(reply, m.Error):
            await ws.close()
            raise Refused.of(reply)
        if not isinstance(reply, m.Welcome):
            await ws.close()
            raise Refused("bad_frame", f"expected welcome, got {reply.type}")
        return cls(ws, chosen, reply)

    async def send(self, message: BaseModel) -> None:
        await self.ws.send(self.codec.encode(message))

    async def recv(self) -> ServerMessage:
        """The next message; ``websockets.ConnectionClosed`` when the socket closes."""
        while not self._unfolded:
            self._unfolded.extend(unfold(self.codec.decode_server(await self.ws.recv())))
        return self._unfolded.popleft()

    async def close(self) -> None:
        await self.ws.close()
