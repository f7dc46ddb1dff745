"""Plain HTTP on the WebSocket port: the browser client's files, health and metrics (and
the history's JSON API: ``api.py``).

Only the browser client's assets are served (by exact name, from a list made
at start-up: no path is ever joined to the folder), each with headers that
keep a hostile page from framing or re-purposing them.
"""

from __future__ import annotations

import json
import mimetypes
from http import HTTPStatus
from pathlib import Path

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server.errors import ServerError

WEB_ROOT = Path(__file__).resolve().parents[2] / "clients" / "web"
TYPES = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".html": "text/html",
}
ASSET_SUFFIXES = frozenset(TYPES)
# The page loads its own scripts, styles and images, opens WebSockets only, and may not
# be framed. Inline style attributes are the renderer's (no inline script).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        # Other game servers too: the operator's listed ones and one a player agreed to
        # (clients/web/servers.js decides which; an XSS has no script to ask with).
        "connect-src 'self' ws: wss:",
        "manifest-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
)
SERVER_HEADER = "cardavia-tarot"  # no versions: they only help an attacker pick an exploit


def response(status: HTTPStatus, body: bytes, content_type: str, cache: bool = False) -> Response:
    headers = Headers(
        [
            ("Content-Type", content_type),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "max-age=300" if cache else "no-store"),
            *SECURITY_HEADERS,
        ]
    )
    if content_type.startswith("text/html"):
        headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return Response(status.value, status.phrase, headers, body)


class ApiError(ServerError):
    """A JSON API request refused before it reads anything (docs/API.md, "Errors")."""

    def __init__(self, status: HTTPStatus, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def not_found(message: str) -> ApiError:
    return ApiError(HTTPStatus.NOT_FOUND, "not_found", message)


def bad_request(message: str) -> ApiError:
    return ApiError(HTTPStatus.BAD_REQUEST, "bad_request", message)


def json_error(status: HTTPStatus, code: str, message: str) -> Response:
    """The JSON API's refusal (docs/API.md)."""
    body = json.dumps({"error": {"code": code, "message": message}}, separators=(",", ":"))
    return response(status, body.encode(), "application/json; charset=utf-8")


def text(status: HTTPStatus, body: str) -> Response:
    return response(status, body.encode(), "text/plain; charset=utf-8")


def assets(root: Path = WEB_ROOT) -> dict[str, Path]:
    """The browser client's files by URL path (``/`` is ``index.html``): nothing else.

    >>> sorted(assets())[:2]
    ['/', '/account.js']
    """
    found = {
        "/" + path.relative_to(root).as_posix(): path
        for path in sorted(root.rglob("*"))
        if path.is_file()
        and path.suffix.lower() in ASSET_SUFFIXES
        and not any(part.startswith((".", "_")) for part in path.relative_to(root).parts)
    }
    if "/index.html" in found:
        found["/"] = found["/index.html"]
    return found


def static_file(path: str, files: dict[str, Path]) -> Response:
    """The asset named by ``path`` exactly, or 404."""
    target = files.get(path.split("?", 1)[0])
    if target is None:
        return text(HTTPStatus.NOT_FOUND, "not found\n")
    try:
        body = target.read_bytes()
    except OSError:
        return text(HTTPStatus.NOT_FOUND, "not found\n")
    suffix = target.suffix.lower()
    kind = TYPES.get(suffix) or mimetypes.guess_type(target.name)[0] or "application/octet-stream"
    if kind.startswith("text/") or kind == "image/svg+xml":
        kind += "; charset=utf-8"
    return response(HTTPStatus.OK, body, kind)


def is_websocket(request: Request) -> bool:
    return "websocket" in request.headers.get("Upgrade", "").lower()


READ_METHODS = ("GET", "HEAD")
ALLOW = ", ".join(READ_METHODS)


def method_refusal(request: Request) -> Response | None:
    """405 for a method other than GET and HEAD: every page, probe and API path is read
    only (docs/API.md, docs/DEPLOY.md). A request with a body never gets here: the
    WebSocket library's parser refuses any ``Content-Length`` but 0, and a
    ``Transfer-Encoding``, by closing the connection without an answer."""
    if request.method in READ_METHODS:
        return None
    message = f"method {request.method[:20]} is not allowed here: {ALLOW} only"
    if request.path.startswith("/api/"):
        refused = json_error(HTTPStatus.METHOD_NOT_ALLOWED, "method_not_allowed", message)
    else:
        refused = text(HTTPStatus.METHOD_NOT_ALLOWED, message + "\n")
    refused.headers["Allow"] = ALLOW
    return refused


def for_method(request: Request, answer: Response) -> Response:
    """``answer`` as the request's method has it: to a HEAD, its headers alone (its
    ``Content-Length`` still the body's, as HTTP says)."""
    if request.method != "HEAD":
        return answer
    return Response(answer.status_code, answer.reason_phrase, answer.headers, b"")
