"""The admin API checks every field of a body (the probe's defect 9): a bad value is a 400
that names it and changes nothing. ``"maintenance": "false"`` (a truthy string) turned the
maintenance on; bans of "999.1.1.1", of "not an address", of a name with control
characters and for 0.01 s were kept with a 200, and such a name reached the text log raw."""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.error
import urllib.request
from typing import Any

import pytest

from server.app import App

from .test_admin import TOKEN, admin_app, admin_url
from .test_tables import create
from .wire import WireClient

__all__ = ["admin_app"]  # the fixture, used by name


def post(app: App, path: str, body: object) -> tuple[int, Any]:
    request = urllib.request.Request(
        admin_url(app) + path,
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {TOKEN}"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


async def refused(app: App, path: str, body: object, says: str) -> None:
    status, answer = await asyncio.to_thread(post, app, path, body)
    assert status == 400 and says in answer["error"], (body, status, answer)


async def test_maintenance_must_be_true_or_false(admin_app: App) -> None:
    for given in ("false", "no", 0, None):
        body = {"message": "back to normal", "maintenance": given}
        await refused(admin_app, "/admin/announce", body, "maintenance: true or false")
    assert admin_app.node.moderation.maintenance is None
    assert admin_app.node.metrics.maintenance._value.get() == 0
    await create(await WireClient.open(f"ws://127.0.0.1:{admin_app.port}/"))  # still allowed
    status, answer = await asyncio.to_thread(
        post, admin_app, "/admin/announce", {"message": "done", "maintenance": False}
    )
    assert status == 200 and answer["maintenance"] is False


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"address": "999.1.1.1", "seconds": 60}, "address: an IP address"),
        ({"address": "not an address", "seconds": 60}, "address: an IP address"),
        ({"address": 17, "seconds": 60}, "address: an IP address"),
        ({"player": "a\u0000\u001b[2Jb", "seconds": 60}, "player: it has a control character"),
        ({"player": "   ", "seconds": 60}, "player: it is empty"),
        ({"player": "x" * 41, "seconds": 60}, "player: it has 41 characters; at most 40"),
        ({"player": ["Mal"], "seconds": 60}, "player: a text"),
        ({"player": "Mal", "seconds": 0.01}, "seconds must be 1-"),
        ({"player": "Mal", "seconds": 60, "adress": "1.2.3.4"}, "unknown field 'adress'"),
    ],
)
async def test_a_ban_of_a_bad_address_name_or_time_is_refused(
    admin_app: App, body: dict[str, Any], says: str
) -> None:
    await refused(admin_app, "/admin/bans", body, says)
    assert await admin_app.node.moderation.bans() == {"players": {}, "addresses": {}}


async def test_every_action_checks_its_body_and_logs_values_escaped(
    admin_app: App, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "tarot.admin")
    bad_name = {"player": "a\u0000\u001b[2Jb"}
    for path in ("/admin/disconnect", "/admin/unban"):
        await refused(admin_app, path, bad_name, "control character")
        await refused(admin_app, path, {"address": "999.1.1.1"}, "an IP address")
    await refused(admin_app, "/admin/announce", {"message": "a\u001b[2Jb"}, "message: it has")
    await refused(admin_app, "/admin/announce", {"message": ""}, "message: it is empty")
    await refused(admin_app, "/admin/announce", {"message": "x" * 501}, "at most 500")
    assert "\x1b" not in caplog.text and "\x00" not in caplog.text
    # A valid address is kept in the form connections have it; the log quotes the values.
    status, _ = await asyncio.to_thread(
        post, admin_app, "/admin/bans", {"address": "2001:0DB8::0001", "seconds": 60}
    )
    assert status == 200
    assert list((await admin_app.node.moderation.bans())["addresses"]) == ["2001:db8::1"]
    assert "banned '2001:db8::1' for 60 s" in caplog.text


async def test_a_bad_content_length_is_a_400_not_a_dropped_connection(admin_app: App) -> None:
    port = int(admin_url(admin_app).rsplit(":", 1)[1])
    for length in ("abc", "\u00b2", "-1", "99999999999"):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        head = f"POST /admin/drain HTTP/1.1\r\nContent-Length: {length}\r\n\r\n"
        writer.write(head.encode("latin-1"))
        line = await asyncio.wait_for(reader.readline(), 10)
        writer.close()
        assert line.startswith(b"HTTP/1.1 400"), (length, line)
