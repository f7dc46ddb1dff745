"""Plain HTTP on the WebSocket port: the browser client's files, health and metrics."""

from __future__ import annotations

import mimetypes
from http import HTTPStatus
from pathlib import Path

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

WEB_ROOT = Path(__file__).resolve().parent.parent / "clients" / "web"
TYPES = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".html": "text/html",
}


def response(status: HTTPStatus, body: bytes, content_type: str, cache: bool = False) -> Response:
    headers = Headers(
        [
            ("Content-Type", content_type),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "max-age=300" if cache else "no-store"),
            ("X-Content-Type-Options", "nosniff"),
        ]
    )
    return Response(status.value, status.phrase, headers, body)


def text(status: HTTPStatus, body: str) -> Response:
    return response(status, body.encode(), "text/plain; charset=utf-8")


def static_file(path: str, root: Path = WEB_ROOT) -> Response:
    """A file under ``root``; ``/`` is ``index.html``. Nothing outside ``root``."""
    relative = path.split("?", 1)[0].lstrip("/") or "index.html"
    try:
        target = (root / relative).resolve()
        target.relative_to(root.resolve())
    except (ValueError, OSError):
        return text(HTTPStatus.NOT_FOUND, "not found\n")
    if target.is_dir():
        target = target / "index.html"
    if not target.is_file():
        return text(HTTPStatus.NOT_FOUND, "not found\n")
    suffix = target.suffix.lower()
    kind = TYPES.get(suffix) or mimetypes.guess_type(target.name)[0] or "application/octet-stream"
    if kind.startswith("text/") or kind in ("application/json", "image/svg+xml"):
        kind += "; charset=utf-8"
    return response(HTTPStatus.OK, target.read_bytes(), kind)


def is_websocket(request: Request) -> bool:
    return "websocket" in request.headers.get("Upgrade", "").lower()
