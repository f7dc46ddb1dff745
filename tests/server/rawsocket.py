"""A WebSocket client that never reads: a raw socket, a handshake written by hand,
frames sent with ``websockets.frames`` (masked, as a client must). An attacker's tool."""

from __future__ import annotations

import base64
import json
import os
import socket

from websockets.frames import Frame, Opcode


class RawClient:
    def __init__(self, port: int, *, receive_buffer: int = 4096, deflate: bool = False) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            "GET / HTTP/1.1",
            f"Host: 127.0.0.1:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            "Sec-WebSocket-Protocol: tarot.v1.json",
        ]
        if deflate:
            lines.append("Sec-WebSocket-Extensions: permessage-deflate")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            response += chunk
        self.handshake = response.split(b"\r\n\r\n", 1)[0].decode()
        assert self.handshake.startswith("HTTP/1.1 101"), self.handshake

    def send(self, message: dict[str, object]) -> None:
        self.send_frame(Frame(Opcode.TEXT, json.dumps(message).encode()))

    def send_frame(self, frame: Frame) -> None:
        self.sock.sendall(frame.serialize(mask=True, extensions=[]))

    def send_flagged_compressed(self, frame: Frame) -> None:
        """``frame`` with RSV1 set, as a permessage-deflate frame is (negotiated or not)."""
        data = frame.serialize(mask=True, extensions=[])
        self.sock.sendall(bytes([data[0] | 0x40]) + data[1:])

    def close(self) -> None:
        self.sock.close()
