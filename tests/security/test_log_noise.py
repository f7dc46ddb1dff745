"""Issue 14.9: what a client causes is answered and logged once, in one line, rate-limited.

Before, against ``tarot serve``: a path of 300 characters got a 500 and a
traceback; 1,100 half-open handshakes under a 1,024 file limit wrote 6,588
tracebacks (2.9 MB) in 30 s; 20,000 pings and a reset wrote 4,676 lines.
Here the same attacks, scaled to a 128-file limit, against a real process.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import resource
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[2]
FILE_LIMIT = 128


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def limit_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """``tarot serve`` in its own process with a small file limit; its log in a file; its
    history a file of its own (not the user's default, which every checkout shares)."""
    port, log = free_port(), tmp_path / "server.log"
    history = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--db", history],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=out,
            preexec_fn=limit_files,
        )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            time.sleep(0.1)
        yield port, log
    finally:
        process.terminate()
        process.wait(10)


def status_of(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path)
    status = conn.getresponse().status
    conn.close()
    return status


def half_open(port: int, count: int, seconds: float) -> None:
    """Connections that never send their handshake, held past the server's time-out."""
    held = []
    for _ in range(count):
        s = socket.socket()
        s.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            s.connect(("127.0.0.1", port))
        held.append(s)
    time.sleep(seconds)
    for s in held:
        s.close()


async def ping_flood_and_reset(port: int, pings: int) -> None:
    async with connect(f"ws://127.0.0.1:{port}/") as ws:
        for _ in range(pings):
            await ws.ping()
        sock = ws.transport.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        ws.transport.abort()


def lines(log: Path) -> list[str]:
    return log.read_text(errors="replace").splitlines()


async def test_client_caused_errors_are_answered_and_logged_in_a_few_lines(
    served: tuple[int, Path],
) -> None:
    port, log = served
    long_paths = [await asyncio.to_thread(status_of, port, "/" + "a" * n) for n in (300, 5000)]
    await asyncio.to_thread(half_open, port, 2 * FILE_LIMIT, 7.0)
    # A flood of pings counts against the rate limit: the node may close first.
    with contextlib.suppress(OSError, ConnectionClosed):
        await ping_flood_and_reset(port, 5000)
    await asyncio.sleep(1)
    root = await asyncio.to_thread(status_of, port, "/")
    written = lines(log)
    print(f"\n{len(written)} log lines, {log.stat().st_size} bytes")
    assert long_paths == [404, 404] and root == 200  # answered, and still serving
    assert not any("Traceback" in line for line in written), written[:20]
    assert len(written) <= 40, written
