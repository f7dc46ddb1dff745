"""docs/API.md's examples, requested on a real node over HTTP (SQLite and PostgreSQL): each
answers the status and the body shown. Then what the examples do not show: no hidden
card, bounds, hostile input."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from server.app import App
from server.history import DealWriter
from server.node.archive import Archive
from server.settings import Settings

from .api_data import fill

DOC = Path(__file__).resolve().parents[2] / "docs" / "API.md"
EXAMPLE = re.compile(r"<!-- api: GET (\S+) (\d{3}) -->\n```json\n(.*?)```", re.S)


def examples() -> list[tuple[str, int, Any]]:
    return [
        (path, int(status), json.loads(body))
        for path, status, body in EXAMPLE.findall(DOC.read_text(encoding="utf-8"))
    ]


@pytest.fixture
async def node(engine: AsyncEngine) -> AsyncIterator[App]:
    await fill(engine)
    app = await App.start(Settings(port=0), archive=Archive(DealWriter(engine), engine))
    try:
        yield app
    finally:
        await app.stop(drain_seconds=0)


async def get(app: App, path: str) -> tuple[int, dict[str, str], Any]:
    def fetch() -> tuple[int, dict[str, str], bytes]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{app.port}{path}", timeout=10) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    status, headers, body = await asyncio.to_thread(fetch)
    return status, headers, json.loads(body)


def test_the_doc_shows_every_route_and_error() -> None:
    paths = [path for path, _, _ in examples()]
    assert len(paths) >= 14
    routes: tuple[str, ...] = ("leaderboard", "players/1", "players?name", "deals?", "tables")
    routes += ("ratings?", "deals/t-")
    for route in routes:
        assert any(route in path for path in paths), route
    assert {status for _, status, _ in examples()} == {200, 400, 404}


async def test_every_example_is_what_the_api_answers(node: App) -> None:
    for path, status, body in examples():
        got, headers, answer = await get(node, path)
        assert (got, answer) == (status, body), path
        assert headers["Content-Type"] == "application/json; charset=utf-8"
        assert headers["Cache-Control"] == "no-store"


async def test_pages_follow_next_to_the_end_and_see_each_deal_once(node: App) -> None:
    seen: list[tuple[str, int]] = []
    offset: int | None = 0
    while offset is not None:
        status, _, page = await get(node, f"/api/players/1/deals?limit=2&offset={offset}")
        assert status == 200
        seen += [(d["table_id"], d["deal_number"]) for d in page["deals"]]
        offset = page["next"]
    assert len(seen) == len(set(seen)) == 5


async def test_a_players_tables_page_by_page_link_each_of_their_deals_once(node: App) -> None:
    linked: list[tuple[str, int]] = []
    offset: int | None = 0
    while offset is not None:
        status, _, page = await get(node, f"/api/players/1/tables?limit=1&offset={offset}")
        assert status == 200 and len(page["tables"]) == 1
        table = page["tables"][0]
        assert table["deals_stored"] == len(table["deal_numbers"])
        linked += [(table["table_id"], n) for n in table["deal_numbers"]]
        offset = page["next"]
    _, _, deals = await get(node, "/api/players/1/deals?limit=100")
    assert sorted(linked) == sorted((d["table_id"], d["deal_number"]) for d in deals["deals"])
    assert len(linked) == len(set(linked)) == 5
    for table_id, number in linked:
        status, _, deal = await get(node, f"/api/deals/{table_id}/{number}")
        assert status == 200 and deal["seats"][0]["account_id"] == 1


HOSTILE = [
    "/api/players/1/tables?limit=101",
    "/api/players/1/tables?name=Anna",
    "/api/players/1/deals?limit=101",
    "/api/players/1/deals?offset=-1",
    "/api/players/1/deals?limit=1e3",
    "/api/players/1?limit=1",
    "/api/players/99999999999999999999",
    "/api/players?name=%1B%5B31m",
    "/api/players",
    "/api/deals/t%00x/0",
    "/api/deals/t-four/%FF",
    "/api/deals/t-four/-1",
    "/api/leaderboard?limit=10&&",
]


async def test_hostile_paths_get_a_json_400(node: App) -> None:
    for path in HOSTILE:
        status, _, answer = await get(node, path)
        assert status == 400 and answer["error"]["code"] == "bad_request", (path, answer)


async def test_a_node_without_a_history_answers_404_in_json() -> None:
    app = await App.start(Settings(port=0))  # no archive: no history database
    try:
        status, _, answer = await get(app, "/api/leaderboard")
    finally:
        await app.stop(drain_seconds=0)
    assert status == 404 and answer["error"]["code"] == "not_found"


async def test_the_database_down_is_a_503(node: App, engine: AsyncEngine) -> None:
    archive = node.node.archive
    assert archive is not None
    archive.engine = _broken()
    status, _, answer = await get(node, "/api/leaderboard")
    assert status == 503 and answer["error"]["code"] == "database_unavailable"
    await archive.engine.dispose()
    archive.engine = engine


def _broken() -> AsyncEngine:
    from server.history import open_engine

    return open_engine("postgresql://nobody@127.0.0.1:9/none")


async def test_a_deal_still_being_played_is_not_there(node: App) -> None:
    from ..server.wire import WireClient, close_all

    client = await WireClient.open(f"ws://127.0.0.1:{node.port}/")
    try:
        created = await client.request({"type": "create_table"}, "table_created")
        table_id = created["table"]["table_id"]
        await client.request({"type": "join", "table_id": table_id}, "joined")
        await client.request({"type": "start", "id": 1}, "ack")  # the deal is dealt
        status, _, answer = await get(node, f"/api/deals/{table_id}/0")
    finally:
        await close_all()
    assert status == 404 and answer["error"]["code"] == "not_found"


async def _open_event(engine: AsyncEngine) -> int:
    from datetime import UTC, datetime, timedelta

    from server.duplicate import DuplicateEvent
    from server.history import create_event

    now = datetime.now(UTC)
    event = DuplicateEvent("Open", bytes(16), 2, now - timedelta(hours=1), now + timedelta(hours=1))
    return await create_event(engine, event)


async def test_an_open_events_bad_parameters_and_malformed_ids_are_a_400(
    node: App, engine: AsyncEngine
) -> None:
    """Parameters are checked first, whether the standings show or not; a malformed id is
    a bad request, as on every route; an id the history has not is a 404."""
    event_id = await _open_event(engine)
    for path in (
        f"/api/duplicate/{event_id}?limit=abc",
        f"/api/duplicate/{event_id}?limit=501",
        f"/api/duplicate/{event_id}?limit=0",
        f"/api/duplicate/{event_id}?offset=abc",
        "/api/duplicate/abc",
        "/api/duplicate/%EF%BC%91",  # a fullwidth 1: a digit to str.isdigit
        f"/api/duplicate/{event_id}/deals/-1",
        f"/api/duplicate/{event_id}/deals/x",
        f"/api/duplicate/{event_id}/entries/abc",
    ):
        status, _, answer = await get(node, path)
        assert (status, answer["error"]["code"]) == (400, "bad_request"), (path, answer)
    for path in ("/api/duplicate/999", f"/api/duplicate/{event_id}/deals/2"):
        status, _, answer = await get(node, path)
        assert (status, answer["error"]["code"]) == (404, "no_such_event"), (path, answer)
    status, _, answer = await get(node, f"/api/duplicate/{event_id}?limit=500")
    assert status == 200 and answer["standings"] is None


async def _raw(app: App, request: bytes) -> bytes:
    """Everything the node sends back to ``request`` (it closes a plain HTTP connection)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", app.port)
    writer.write(request)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return answer


async def test_pages_probes_and_the_api_answer_get_and_head_only(node: App) -> None:
    """Any other method is a 405 naming what is allowed (JSON under /api/); a HEAD has
    the GET's headers and no body."""
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        for path in ("/", "/index.html", "/livez", "/api/leaderboard", "/api/players/1"):
            line = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
            head, _, body = (await _raw(node, line)).partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 405 "), (method, path, head)
            assert b"\r\nAllow: GET, HEAD" in head, (method, path, head)
            if path.startswith("/api/"):
                assert json.loads(body)["error"]["code"] == "method_not_allowed"
    got = await _raw(node, b"GET /api/leaderboard HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    head, _, body = got.partition(b"\r\n\r\n")
    headed = await _raw(node, b"HEAD /api/leaderboard HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert headed.startswith(b"HTTP/1.1 200 ") and headed.endswith(b"\r\n\r\n")
    assert f"Content-Length: {len(body)}\r\n".encode() in headed
    # A request with a body is refused by the WebSocket library's parser before the node
    # sees it: the connection is closed with no answer (docs/DEPLOY.md, "Security").
    with_body = (
        b"POST /api/leaderboard HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello"
    )
    assert await _raw(node, with_body) == b""
