"""A connection's outgoing frames: written once per loop turn, and bounded.

Frames are framed at once (so they keep their order with the frames the
WebSocket protocol makes by itself: pongs, the close) and written to the
socket at the end of the loop turn, all in one write: a fan-out of one
commit's events costs one system call per connection, not one per frame.
Nothing here awaits: a slow client never holds up the others.

A client that does not read lets the kernel's buffer fill (set to about
``bound`` too), then the transport's. Once what waits passes ``bound`` bytes
in the transport the connection
is dropped (``on_overflow``): a node never buffers without limit for
anyone, and the keep-alive ping, which waits for the buffer to drain,
would never notice such a client by itself.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State


class Outbox:
    def __init__(self, ws: ServerConnection, bound: int, on_overflow: Callable[[], None]) -> None:
        self.ws = ws
        self.bound = bound
        self.on_overflow = on_overflow
        self._scheduled = False
        self.overflowed = False
        # The kernel's share is bounded too (Linux would grow it to megabytes).
        sock = ws.transport.get_extra_info("socket")
        if bound and sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, max(bound // 2, 4096))

    def put(self, frame: str | bytes) -> None:
        ws = self.ws
        if self.overflowed or ws.protocol.state is not State.OPEN:
            return
        if isinstance(frame, str):
            ws.protocol.send_text(frame.encode())
        else:
            ws.protocol.send_binary(frame)
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        self._scheduled = False
        ws = self.ws
        chunks = ws.protocol.data_to_send()
        if not chunks:
            return
        if all(chunks):
            ws.transport.write(b"".join(chunks))
        else:  # the end of the stream is among them (a close): as websockets writes it
            for chunk in chunks:
                if chunk:
                    ws.transport.write(chunk)
                elif ws.transport.can_write_eof():
                    ws.transport.write_eof()
                else:
                    ws.transport.close()
        if self.bound and ws.transport.get_write_buffer_size() > self.bound:
            self.overflowed = True
            self.on_overflow()
