"""Names hold no links (docs/PROTOCOL.md, "Names"): a table's name is shown to everyone in
the lobby and a player's at every table, so the chat's link rule (protocol/links.py) holds
for them too where they are given: a guest's name (join, queue, play_now), an account's
(sign_up) and a table's (create_table). Before, "free chips at spam.com" as a table name and
"spam。com" as a player's passed, shown to every lobby reader. Names like "Dr. Who" pass.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, insert, select

from protocol import models as m
from protocol.skeletons import name_skeleton
from server.app import App
from server.history import accounts as accounts_module
from server.history.schema import accounts
from server.table.data import TableData

from .social_wire import PASSWORD, V2Client, node, url_of
from .wire import Message, WireClient

__all__ = ["node"]  # the fixture (social_wire.py's), used by name

LINKS = ["free chips at spam.com", "spam\u3002com", "spam[dot]net", "www.x", "1.2.3.4"]
ORDINARY = ["Dr. Who", "J.R.R.", "Table 3.5", "Mr. T", "A. Smith"]


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2id with small parameters (the real hash still): sign-ups are many here."""
    monkeypatch.setattr(accounts_module, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


_IDS = iter(range(1, 1 << 30))


async def refused(client: WireClient, message: Message) -> dict[str, Any]:
    """The answer to ``message`` (its ``re``; play_now's ``joined`` has none), which must be
    an error."""
    marker = f"n{next(_IDS)}"
    await client.send({**message, "id": marker})
    answer = await client.until(lambda m: m.get("re") == marker or m["type"] == "joined")
    assert answer["type"] == "error", (message, answer)
    return answer


def assert_link_refused(error: dict[str, Any]) -> None:
    assert error["code"] == "bad_name", error
    assert "link" in error["message"], error


async def v2(app: App) -> V2Client:
    client = await V2Client.open(url_of(app))
    assert isinstance(client, V2Client)
    return client


async def test_a_table_named_with_a_link_is_refused_and_none_is_made(node: App) -> None:
    host = await WireClient.open(url_of(node))
    for name in LINKS:
        error = await refused(host, {"type": "create_table", "options": {"name": name}})
        assert_link_refused(error)
    assert node.node.runtimes == {}
    listed = await host.request({"type": "list_tables"}, "tables")
    assert listed["tables"] == []
    for name in ORDINARY:
        created = await host.request(
            {"type": "create_table", "options": {"name": name}}, "table_created"
        )
        assert created["table"]["options"]["name"] == name


async def test_a_guest_joining_under_a_link_is_refused_and_not_seated(node: App) -> None:
    host = await WireClient.open(url_of(node))
    created = await host.request({"type": "create_table"}, "table_created")
    table_id = created["table"]["table_id"]
    for name in LINKS:
        message = {"type": "join", "table_id": table_id, "name": name}
        assert_link_refused(await refused(host, message))
    assert all(s.occupant == "empty" for s in node.node.runtimes[table_id].data.seats)
    for seat, name in enumerate(ORDINARY[:4]):
        guest = await WireClient.open(url_of(node))
        await guest.request({"type": "join", "table_id": table_id, "name": name}, "joined")
        assert node.node.runtimes[table_id].data.seats[seat].name == name


async def test_a_guest_queueing_under_a_link_is_refused_and_not_queued(node: App) -> None:
    guest = await v2(node)
    for name in LINKS:
        assert_link_refused(await refused(guest, {"type": "queue", "name": name}))
    # Not searching: cancelling says so.
    assert (await refused(guest, {"type": "cancel_queue"}))["code"] == "not_queued"
    status = await guest.request({"type": "queue", "name": "Dr. Who"}, "queue_status")
    assert status["state"] == "searching"


async def test_a_guest_playing_now_under_a_link_is_refused_and_no_table_is_made(
    node: App,
) -> None:
    guest = await v2(node)
    for name in LINKS:
        assert_link_refused(await refused(guest, {"type": "play_now", "name": name}))
    assert node.node.runtimes == {}
    await guest.request({"type": "play_now", "name": "A. Smith"}, "joined")
    [runtime] = node.node.runtimes.values()
    assert "A. Smith" in [s.name for s in runtime.data.seats]


async def test_an_account_named_with_a_link_is_refused_and_none_is_made(node: App) -> None:
    client = await WireClient.open(url_of(node))
    for name in LINKS:
        message = {"type": "sign_up", "name": name, "password": PASSWORD}
        assert_link_refused(await refused(client, message))
    archive = node.node.archive
    assert archive is not None and archive.engine is not None
    async with archive.engine.connect() as conn:
        count = (await conn.execute(select(func.count()).select_from(accounts))).scalar_one()
    assert count == 0
    for name in ORDINARY:
        fresh = await WireClient.open(url_of(node))
        signed = await fresh.request(
            {"type": "sign_up", "name": name, "password": PASSWORD}, "signed_in"
        )
        assert signed["account"]["name"] == name


async def test_an_account_and_a_table_named_with_a_link_before_the_rule_are_left_as_they_are(
    node: App,
) -> None:
    """The check is where a name is given: an account named so before still signs in (and
    can be muted by its name), a table stored so still loads."""
    archive = node.node.archive
    assert archive is not None and archive.engine is not None
    row = {
        "name": "spam.com",
        "name_key": "spam.com",
        "name_skeleton": name_skeleton("spam.com"),
        "password_hash": accounts_module._hasher.hash(PASSWORD),
        "created_at": datetime.now(UTC),
    }
    async with archive.engine.begin() as conn:
        await conn.execute(insert(accounts).values(row))
    old = await WireClient.open(url_of(node))
    signed = await old.request(
        {"type": "sign_in", "name": "SPAM.com", "password": PASSWORD}, "signed_in"
    )
    assert signed["account"]["name"] == "spam.com"
    other = await v2(node)
    await other.request({"type": "mute", "name": "spam.com"}, "muted")
    stored = TableData(table_id="old", options=m.TableOptions()).model_dump(mode="json")
    stored["options"]["name"] = "free chips at spam.com"
    assert TableData.model_validate(stored).options.name == "free chips at spam.com"
