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
import struct
from collections.abc import Callable

from websockets.asyncio.server import ServerConnection
from websockets.protocol import Side, State


class Outbox:
    def __init__(self, ws: ServerConnection, bound: int, on_overflow: Callable[[], None]) -> None:
        self.ws = ws
        self.bound = bound
        self.on_overflow = on_overflow
        self._scheduled = False
        self.overflowed = False
        # A server's frames are not masked; without extensions (the node turns compression
        # off) a frame is its header and its payload, framed here (``_framed``).
        protocol = ws.protocol
        self._plain = protocol.side is Side.SERVER and not protocol.extensions
        # The kernel's share is bounded too (Linux would grow it to megabytes).
        sock = ws.transport.get_extra_info("socket")
        if bound and sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, max(bound // 2, 4096))

    def put(self, frame: str | bytes) -> None:
        protocol = self.ws.protocol
        if self.overflowed or protocol.state is not State.OPEN:
            return
        text = isinstance(frame, str)
        data = frame.encode() if isinstance(frame, str) else frame
        if self._plain:
            _framed(protocol.writes, TEXT if text else BINARY, data)
        elif text:
            protocol.send_text(data)
        else:
            protocol.send_binary(data)
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


TEXT, BINARY = 0x81, 0x82  # the first byte of a final text or binary frame (RFC 6455, 5.2)


def _framed(writes: list[bytes], first: int, data: bytes) -> None:
    """Append an unmasked, unfragmented frame to websockets' own ``writes``, in order with
    what it frames itself (pongs, the close): what ``send_binary`` would append, less its
    ``Frame`` object, ``BytesIO`` and checks (1.7-1.8 µs a frame, put and its share of the
    flush, down to 1.0)."""
    size = len(data)
    if size < 126:
        writes.append(bytes((first, size)))
    elif size < 65536:
        writes.append(struct.pack("!BBH", first, 126, size))
    else:
        writes.append(struct.pack("!BBQ", first, 127, size))
    if data:  # an empty chunk in ``writes`` means the end of the stream
        writes.append(data)
