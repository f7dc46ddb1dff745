"""Issue 14.8, 14.9 (a long path) and 14.10: who may talk to a node, and what it serves.

Before: any web page could open WebSockets to a player's server (no Origin
check) and any Host was answered (DNS rebinding reached /metrics); a path of
300 characters gave a 500 with a traceback; README.md and __init__.py were
served; no CSP, framing or referrer policy; the Server header named versions.
"""

from __future__ import annotations

import asyncio
import http.client
import re
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from ..server.wire import WireClient
from .conftest import Start, ws_url

ROOT = Path(__file__).resolve().parents[2]


def get(port: int, path: str, headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    response.read()
    conn.close()
    return response


async def fetch(
    port: int, path: str, headers: dict[str, str] | None = None
) -> http.client.HTTPResponse:
    return await asyncio.to_thread(get, port, path, headers)


async def test_a_foreign_page_cannot_open_a_websocket(node: Start) -> None:
    app = await node()
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{app.port + 1}"):
        with pytest.raises(InvalidStatus) as refused:
            await connect(ws_url(app), origin=origin)  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403, origin
    own = f"http://127.0.0.1:{app.port}"
    async with connect(ws_url(app), origin=own) as ws:  # type: ignore[arg-type]
        await ws.send('{"type": "hello", "protocol": 1}')
        assert "welcome" in str(await ws.recv())
    await WireClient.open(ws_url(app))  # no Origin: not a browser, not concerned


async def test_listed_origins_and_hosts_are_a_setting(node: Start) -> None:
    app = await node(allowed_origins=("https://tarot.example",), allowed_hosts=("127.0.0.1",))
    async with connect(ws_url(app), origin="https://tarot.example"):  # type: ignore[arg-type]
        pass
    with pytest.raises(InvalidStatus):
        await connect(ws_url(app), origin=f"http://127.0.0.1:{app.port}")  # type: ignore[arg-type]
    assert (await fetch(app.port, "/", {"Host": "localhost"})).status == 421


async def test_a_rebound_dns_name_gets_nothing(node: Start) -> None:
    """A page on evil.example whose name now points at 127.0.0.1: same-origin for the
    browser, but its requests carry Host: evil.example."""
    app = await node()
    for path in ("/", "/metrics", "/app.js"):
        response = await fetch(app.port, path, {"Host": f"evil.example:{app.port}"})
        assert response.status == 421, path
    with pytest.raises(InvalidStatus) as refused:
        await connect(
            f"ws://127.0.0.1:{app.port}/",
            origin=f"http://evil.example:{app.port}",  # type: ignore[arg-type]
            additional_headers={"Host": f"evil.example:{app.port}"},
        )
    assert refused.value.response.status_code == 421


async def test_metrics_behind_a_token(node: Start) -> None:
    app = await node(metrics_token="s3cret-s3cret-s3cret")
    assert (await fetch(app.port, "/metrics")).status == 404
    wrong = {"Authorization": "Bearer nope"}
    assert (await fetch(app.port, "/metrics", wrong)).status == 404
    right = {"Authorization": "Bearer s3cret-s3cret-s3cret"}
    assert (await fetch(app.port, "/metrics", right)).status == 200


async def test_metrics_on_their_own_address(node: Start) -> None:
    app = await node(metrics_port=0)
    assert app.metrics_port is not None and app.metrics_port != app.port
    assert (await fetch(app.port, "/metrics")).status == 404
    assert (await fetch(app.metrics_port, "/metrics")).status == 200
    assert (await fetch(app.metrics_port, "/")).status == 404  # nothing else there


async def test_metrics_are_refused_to_a_remote_client_behind_a_trusted_local_proxy(
    node: Start,
) -> None:
    """A local nginx (a trusted proxy on 127.0.0.1) forwards a remote client's request: the
    client's address decides, as it does for the API's limits and the bans (the probe's
    defect 10: the TCP peer, 127.0.0.1, was asked, and the client read the metrics)."""
    app = await node(trusted_proxies=("127.0.0.1",))
    remote = {"X-Forwarded-For": "203.0.113.9"}
    assert (await fetch(app.port, "/metrics", remote)).status == 404
    spoofed = {"X-Forwarded-For": "127.0.0.1, 203.0.113.9"}  # only the proxy's word counts
    assert (await fetch(app.port, "/metrics", spoofed)).status == 404
    assert (await fetch(app.port, "/metrics", {"X-Forwarded-For": "not an address"})).status == 404
    local = {"X-Forwarded-For": "127.0.0.1"}  # someone on this machine, through the proxy
    assert (await fetch(app.port, "/metrics", local)).status == 200
    assert (await fetch(app.port, "/metrics")).status == 200  # the proxy itself, or a probe


def test_nginx_does_not_publish_metrics() -> None:
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    block = re.search(r"location = /metrics \{(.*?)\}", conf, re.S)
    assert block is not None and "return 404" in block.group(1)
    assert "server_tokens off" in conf


async def test_a_long_path_is_a_404_not_a_traceback(node: Start) -> None:
    app = await node()
    for path in ("/" + "a" * 300, "/" + "a/" * 2000, "/%00", "/index.html/x"):
        assert (await fetch(app.port, path)).status == 404, path[:20]


async def test_only_the_browser_clients_assets_are_served(node: Start) -> None:
    app = await node()
    for path in ("/README.md", "/__init__.py", "/../pyproject.toml", "/.git/config"):
        assert (await fetch(app.port, path)).status == 404, path
    for path in ("/", "/index.html", "/app.js", "/css/base.css", "/favicon.svg", "/lobby.js"):
        assert (await fetch(app.port, path)).status == 200, path


async def test_every_answer_has_the_security_headers_and_no_versions(node: Start) -> None:
    app = await node()
    page = await fetch(app.port, "/")
    csp = page.getheader("Content-Security-Policy") or ""
    for directive in ("default-src 'none'", "script-src 'self'", "frame-ancestors 'none'"):
        assert directive in csp
    assert "unsafe-eval" not in csp
    for path in ("/", "/app.js", "/nope", "/healthz"):
        response = await fetch(app.port, path)
        assert response.getheader("X-Content-Type-Options") == "nosniff", path
        assert response.getheader("X-Frame-Options") == "DENY", path
        assert response.getheader("Referrer-Policy") == "no-referrer", path
        server = response.getheader("Server") or ""
        assert not re.search(r"\d", server), server
    async with connect(ws_url(app)) as ws:
        assert ws.response is not None
        assert not re.search(r"\d", ws.response.headers.get("Server", ""))
