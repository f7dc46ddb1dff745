"""Attacks on a node's memory by clients that send and never read (issue 14.2, 14.3)."""

from __future__ import annotations

import asyncio
import resource

from websockets.frames import Frame, Opcode

from server.app import App
from server.settings import Settings

from ..rawsocket import RawClient
from ..test_tables import create
from ..wire import WireClient


async def started(**options: object) -> App:
    return await App.start(Settings(port=0, **options))  # type: ignore[arg-type]


async def sent(client: RawClient, frame: Frame) -> bool:
    try:
        await asyncio.to_thread(client.send_frame, frame)
    except (ConnectionResetError, BrokenPipeError):
        return False
    return True


async def wait_closed(app: App, remaining: int, seconds: float = 10.0) -> bool:
    for _ in range(int(seconds * 20)):
        if len(app.connections) <= remaining:
            return True
        await asyncio.sleep(0.05)
    return False


async def test_a_client_that_never_reads_is_dropped_once_its_send_buffer_is_full() -> None:
    app = await started(send_buffer_bytes=64 * 1024)
    try:
        url = f"ws://127.0.0.1:{app.port}/"
        for _ in range(3):  # a lobby big enough that each answer is several KB
            host = await WireClient.open(url)
            for _ in range(8):
                await create(host, name="x" * 30)
        attacker = await asyncio.to_thread(RawClient, app.port)
        await asyncio.to_thread(attacker.send, {"type": "hello", "protocol": 1})
        for _ in range(190):  # within the rate limit's burst: only the reading is missing
            if not await sent(attacker, Frame(Opcode.TEXT, b'{"type": "list_tables"}')):
                break  # dropped by the node already
        assert await wait_closed(app, 3), "the node still buffers for a client that never reads"
        bystander = await WireClient.open(url)
        await bystander.request({"type": "ping", "id": 1}, "pong")
        attacker.close()
    finally:
        await app.stop(drain_seconds=0)


async def test_websocket_pings_count_against_the_rate_limit() -> None:
    app = await started(rate_burst=50, abuse_strikes=100)
    try:
        attacker = await asyncio.to_thread(RawClient, app.port)
        ping = Frame(Opcode.PING, b"x" * 125)
        for _ in range(2000):
            if not await sent(attacker, ping):
                break  # dropped by the node already
        assert await wait_closed(app, 0), "20,000 pings and the flood is still served"
        attacker.close()
    finally:
        await app.stop(drain_seconds=0)


async def test_the_node_does_not_negotiate_compression_so_no_deflate_bomb_reaches_it() -> None:
    app = await started()
    try:
        client = await asyncio.to_thread(RawClient, app.port, deflate=True)
        assert "permessage-deflate" not in client.handshake.lower(), client.handshake
        # A frame flagged compressed anyway (RSV1) is a protocol error: the node closes.
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        bomb = Frame(Opcode.TEXT, b"\x00" * 1000)
        await asyncio.to_thread(client.send_flagged_compressed, bomb)
        client.sock.settimeout(5)
        closing = await asyncio.to_thread(client.sock.recv, 4)
        assert closing[:1] == b"\x88" and closing[2:4] == (1002).to_bytes(2, "big"), closing
        assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 50_000  # KiB
        client.close()
    finally:
        await app.stop(drain_seconds=0)
