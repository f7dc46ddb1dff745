"""The admin API's own listener (``--admin-port``): plain HTTP/1.1, one JSON request per
connection, GET and POST. Apart from the public port, which never answers /admin (the
WebSocket server's HTTP is GET-only, and an operator's API has no business on the
Internet side)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

MAX_BODY = 64 * 1024
READ_SECONDS = 10.0
Handler = Callable[[str, str, dict[str, str], Any], Awaitable[tuple[int, Any]]]


async def serve_admin(host: str, port: int, handle: Handler) -> asyncio.Server:
    """Listen on ``host:port``; ``handle(method, path, headers, body)`` -> (status, JSON)."""

    async def one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(READ_SECONDS):
                request = await _read(reader)
            status, answer = (
                (HTTPStatus.BAD_REQUEST, {"error": "bad request"})
                if request is None
                else await handle(*request)
            )
        except (TimeoutError, ConnectionError, asyncio.IncompleteReadError):
            writer.close()
            return
        body = json.dumps(answer).encode()
        head = (
            f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
            "Content-Type: application/json\r\nCache-Control: no-store\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        with contextlib.suppress(ConnectionError):
            writer.write(head.encode() + body)
            await writer.drain()
        writer.close()

    return await asyncio.start_server(one, host, port)


async def _read(reader: asyncio.StreamReader) -> tuple[str, str, dict[str, str], Any] | None:
    line = (await reader.readline()).decode("latin-1").split()
    if len(line) != 3:
        return None
    method, path, _ = line
    headers: dict[str, str] = {}
    while True:
        raw = (await reader.readline()).decode("latin-1").strip()
        if not raw:
            break
        name, _, value = raw.partition(":")
        headers[name.strip().lower()] = value.strip()
        if len(headers) > 100:
            return None
    length = headers.get("content-length", "0") or "0"
    if not (length.isascii() and length.isdigit()) or int(length) > MAX_BODY:  # "abc": a traceback
        return None
    body: Any = None
    if int(length):
        try:
            body = json.loads(await reader.readexactly(int(length)))
        except (ValueError, RecursionError):  # RecursionError: 64 KiB of "[[[[..."
            return None
    return method, path, headers, body
