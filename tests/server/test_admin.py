"""Issue 25.6: the admin API and ``tarot admin``: tables without hands, closing a table,
disconnecting and banning a player or an address for a time, a maintenance announced (every
connection told, new tables refused), a drain; each action logged and counted."""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus

from cli.main import main
from server.app import App
from server.settings import Settings

from .test_tables import create
from .wire import WireClient, is_event

TOKEN = "an-admin-token-of-the-tests"


@pytest.fixture
async def admin_app() -> AsyncIterator[App]:
    settings = Settings(port=0, admin_port=0, admin_token=TOKEN, lease_ms=600)
    app = await App.start(settings)
    try:
        yield app
    finally:
        await app.stop(drain_seconds=0)


def admin_url(app: App) -> str:
    assert app.admin_server is not None
    return f"http://127.0.0.1:{app.admin_server.sockets[0].getsockname()[1]}"


async def tarot_admin(app: App, capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, Any]:
    """``tarot admin WORDS --node URL --token T``: its exit status and its node's answer."""
    capsys.readouterr()
    argv = ["admin", *words, "--node", admin_url(app), "--token", TOKEN]
    status = await asyncio.to_thread(main, argv)
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    return status, line["answer"]


def raw(url: str, token: str | None) -> int:
    return answer(url, token)[0]


def answer(url: str, token: str | None) -> tuple[int, Any]:
    """A GET's status and its JSON answer (None for another body; ``token`` None sends none)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as r:
            status, body = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, body = e.code, e.read()
    try:
        return status, json.loads(body)
    except ValueError:
        return status, None  # not the admin API (the public port's pages)


async def test_the_admin_api_needs_its_token_and_its_own_port(admin_app: App) -> None:
    url = admin_url(admin_app) + "/admin/tables"
    assert await asyncio.to_thread(raw, url, None) == 401
    assert await asyncio.to_thread(raw, url, "wrong-token-wrong-token") == 401
    assert await asyncio.to_thread(raw, url, TOKEN) == 200
    public = f"http://127.0.0.1:{admin_app.port}/admin/tables"
    assert await asyncio.to_thread(raw, public, TOKEN) == 404  # never on the public port


async def test_tables_are_listed_and_closed_without_hands(
    admin_app: App, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    client = await WireClient.open(f"ws://127.0.0.1:{admin_app.port}/")
    table_id = await create(client)
    await client.request({"type": "join", "table_id": table_id, "name": "Alice"}, "joined")
    await client.send({"type": "start"})
    await client.until(is_event("turn"))
    status, answer = await tarot_admin(admin_app, capsys, "tables")
    assert status == 0 and [t["table_id"] for t in answer["tables"]] == [table_id]
    assert answer["tables"][0]["seats"][0]["name"] == "Alice"
    status, one = await tarot_admin(admin_app, capsys, "table", table_id)
    text = json.dumps(one)
    assert one["status"] == "playing" and "hand" not in text and "seed" not in text
    assert "token" not in text
    with caplog.at_level(logging.INFO, logger="tarot.admin"):
        status, closed = await tarot_admin(admin_app, capsys, "close", table_id)
    assert status == 0 and closed["status"] == "finished"
    await client.until(is_event("table_over"))
    assert any(f"closed table {table_id}" in r.getMessage() for r in caplog.records)
    counted = admin_app.node.metrics.admin_actions.labels(action="close_table")._value.get()
    assert counted == 1


async def test_a_player_disconnected_then_banned(
    admin_app: App, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"ws://127.0.0.1:{admin_app.port}/"
    alice = await WireClient.open(url)
    table_id = await create(alice)
    await alice.request({"type": "join", "table_id": table_id, "name": "Alice"}, "joined")
    status, answer = await tarot_admin(admin_app, capsys, "disconnect", "--player", "alice")
    assert status == 0 and answer == {"disconnected": 1}
    bye = await alice.until(lambda m: m["type"] == "bye")
    assert bye["reason"] == "admin"
    status, answer = await tarot_admin(
        admin_app, capsys, "ban", "--player", "Mallory", "--minutes", "10"
    )
    assert status == 0 and answer["disconnected"] == 0
    mallory = await WireClient.open(url)
    await mallory.send({"type": "join", "table_id": table_id, "name": "Mallory"})
    refused = await mallory.until(lambda m: m["type"] == "error")
    assert refused["code"] == "banned" and "'Mallory' may not play here until" in refused["message"]
    status, bans = await tarot_admin(admin_app, capsys, "bans")
    assert list(bans["players"]) == ["mallory"]
    await tarot_admin(admin_app, capsys, "unban", "--player", "Mallory")
    await mallory.request({"type": "join", "table_id": table_id, "name": "Mallory"}, "joined")


async def test_an_address_banned_for_a_time_cannot_connect(
    admin_app: App, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"ws://127.0.0.1:{admin_app.port}/"
    client = await WireClient.open(url)
    status, answer = await tarot_admin(
        admin_app, capsys, "ban", "--address", "127.0.0.1", "--minutes", "1"
    )
    assert status == 0 and answer["disconnected"] == 1
    assert (await client.until(lambda m: m["type"] == "bye"))["reason"] == "banned"
    with pytest.raises(InvalidStatus) as refused:
        await WireClient.open(url)
    assert refused.value.response.status_code == 403
    await tarot_admin(admin_app, capsys, "unban", "--address", "127.0.0.1")
    await WireClient.open(url)


async def test_a_maintenance_is_announced_and_refuses_new_tables(
    admin_app: App, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"ws://127.0.0.1:{admin_app.port}/"
    players = [await WireClient.open(url) for _ in range(3)]
    table_id = await create(players[0])
    message = "the server restarts at 18:00 UTC for an update (5 minutes)"
    status, answer = await tarot_admin(admin_app, capsys, "announce", message)
    assert status == 0 and answer == {"reached": 3, "maintenance": True}
    for player in players:
        notice = await player.until(lambda m: m["type"] == "error")
        assert (notice["code"], notice["message"]) == ("maintenance", message)
    await players[1].send({"type": "create_table", "id": 4})
    refused = await players[1].until(lambda m: m.get("re") == 4)
    assert refused["code"] == "maintenance"
    quick = await WireClient.open(url, version=2)  # quick play makes tables too
    for number, kind in enumerate(("play_now", "queue"), 5):
        await quick.send({"type": kind, "id": number})
        refused = await quick.until(lambda m: m.get("re") in (5, 6) and m["type"] == "error")
        assert refused["code"] == "maintenance", refused
    await players[2].request({"type": "join", "table_id": table_id}, "joined")  # play goes on
    found = admin_app.node.metrics.maintenance._value.get()
    assert found == 1
    await tarot_admin(admin_app, capsys, "announce", "we are back", "--end")  # told too
    await players[1].until(lambda m: m.get("message") == "we are back")
    await create(players[1])


async def test_a_drain_stops_the_node_as_sigterm_does(
    admin_app: App, capsys: pytest.CaptureFixture[str]
) -> None:
    status, answer = await tarot_admin(admin_app, capsys, "drain")
    assert status == 0 and answer == {"draining": True}
    assert admin_app.stop_requested.is_set()  # run_server then drains and stops the node


def test_tarot_admin_without_a_token_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["admin", "tables", "--node", "http://127.0.0.1:9"]) == 2
    assert "admin token" in capsys.readouterr().err


async def test_tables_are_listed_a_page_at_a_time_from_the_stores_list(
    admin_app: App, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 25 (found after it): the listing read every stored table at once; at 50,000 that
    passed the store's time-out, as the lobby had. A page now, oldest first."""
    client = await WireClient.open(f"ws://127.0.0.1:{admin_app.port}/")
    made = [await create(client) for _ in range(5)]
    status, first = await tarot_admin(admin_app, capsys, "tables", "--limit", "2")
    assert status == 0 and first["live"] == 5 and first["next"]
    pages = [first]
    while pages[-1]["next"]:
        status, page = await tarot_admin(
            admin_app, capsys, "tables", "--limit", "2", "--after", pages[-1]["next"]
        )
        pages.append(page)
    listed = [t["table_id"] for page in pages for t in page["tables"]]
    # Oldest first (tables made in one millisecond by their id): each once, in 3 pages.
    assert sorted(listed) == sorted(made) and [len(p["tables"]) for p in pages] == [2, 2, 1]


@pytest.mark.parametrize(
    "query", ["limit=0", "limit=1001", "limit=x", "limit=%C2%B2", "after=nope", "after=1."]
)
async def test_a_bad_page_of_tables_is_refused_with_400(admin_app: App, query: str) -> None:
    url = admin_url(admin_app) + "/admin/tables?" + query
    assert await asyncio.to_thread(raw, url, TOKEN) == 400


@pytest.mark.parametrize("limit", ["0", "1001", "many"])
def test_tarot_admin_tables_refuses_a_bad_limit(
    capsys: pytest.CaptureFixture[str], limit: str
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["admin", "tables", "--limit", limit, "--node", "http://127.0.0.1:9", "--token", "t"])
    assert exit.value.code == 2 and "--limit" in capsys.readouterr().err


@pytest.mark.redis
async def test_a_store_failure_is_a_503_in_the_protocols_words(tmp_path: Path) -> None:
    """Found after issue 25: the admin API said a store failure in words of its own; it now
    answers as every other path does (``server.store.base.unavailable``)."""
    from cli.local_servers import RedisServer

    redis = RedisServer(tmp_path / "redis").start()
    settings = Settings(
        port=0, admin_port=0, admin_token=TOKEN, redis_url=redis.url, redis_timeout=0.5
    )
    app = await App.start(settings)
    try:
        url = admin_url(app) + "/admin/tables"
        assert (await asyncio.to_thread(answer, url, TOKEN))[0] == 200
        redis.stop()
        status, body = await asyncio.to_thread(answer, url, TOKEN)
        assert status == 503 and body["error"] == "unavailable", body
        assert body["message"].startswith("the table store failed"), body
    finally:
        await app.stop(drain_seconds=0)
        redis.stop()


async def test_reported_chat_messages_are_listed_a_page_at_a_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 25 (admin): "reports of chat messages listed here": they were only in
    ``tarot reports``, which needs the database's URL on the operator's machine."""
    from server.history import ChatReport, store_report
    from server.node.archive import Archive

    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    assert archive.engine is not None
    for seq, text in enumerate(("rude", "ruder", "<b>rudest</b>"), start=1):
        message = {"kind": "chat", "name": "Bob", "text": text, "seq": seq}
        said = ChatReport("T1", seq, None, "Anna", message, [], reason=f"report {seq}")
        await store_report(archive.engine, said)
    settings = Settings(port=0, admin_port=0, admin_token=TOKEN)
    app = await App.start(settings, archive=archive)
    try:
        status, first = await tarot_admin(app, capsys, "reports", "--limit", "2")
        assert status == 0 and first["next"] is not None
        status, second = await tarot_admin(
            app, capsys, "reports", "--limit", "2", "--before", str(first["next"])
        )
        assert status == 0 and second["next"] is None
        listed = [r for page in (first, second) for r in page["reports"]]
        assert [r["message"]["text"] for r in listed] == ["<b>rudest</b>", "ruder", "rude"]
        assert {(r["reporter"], r["author"], r["table_id"]) for r in listed} == {
            ("Anna", "Bob", "T1")
        }
        url = admin_url(app) + "/admin/reports?limit=0"
        assert await asyncio.to_thread(raw, url, TOKEN) == 400
    finally:
        await app.stop(drain_seconds=0)


async def test_reports_of_a_node_without_a_history_are_a_404(admin_app: App) -> None:
    url = admin_url(admin_app) + "/admin/reports"
    assert await asyncio.to_thread(answer, url, TOKEN) == (
        404,
        {"error": "this node keeps no history"},
    )
