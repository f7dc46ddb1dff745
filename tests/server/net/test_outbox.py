"""The outbox frames what it sends itself (server/net/outbox.py, ``_framed``): the bytes
must be websockets' own, whatever the payload's size and kind, in order with what
websockets frames by itself."""

from __future__ import annotations

import pytest
from websockets.protocol import State
from websockets.server import ServerProtocol

from server.net.outbox import BINARY, TEXT, _framed


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
@pytest.mark.parametrize("text", [True, False], ids=["text", "binary"])
def test_a_framed_payload_is_the_bytes_websockets_sends(size: int, text: bool) -> None:
    data = bytes(range(256)) * (size // 256) + bytes(size % 256)
    theirs = ServerProtocol(state=State.OPEN)
    (theirs.send_text if text else theirs.send_binary)(data)
    ours: list[bytes] = []
    _framed(ours, TEXT if text else BINARY, data)
    assert b"".join(ours) == b"".join(theirs.data_to_send())
    assert all(ours), "an empty chunk would read as the end of the stream"


def test_framed_payloads_keep_their_place_among_websockets_own_frames() -> None:
    protocol = ServerProtocol(state=State.OPEN)
    _framed(protocol.writes, BINARY, b"first")
    protocol.send_ping(b"p")
    _framed(protocol.writes, TEXT, b"second")
    reference = ServerProtocol(state=State.OPEN)
    reference.send_binary(b"first")
    reference.send_ping(b"p")
    reference.send_text(b"second")
    assert b"".join(protocol.data_to_send()) == b"".join(reference.data_to_send())
