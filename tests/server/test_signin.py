"""Signing in over the WebSocket (docs/PROTOCOL.md, "Accounts"), against a real node that
keeps its history in a real SQLite file: the session in ``hello``, seats taken as the
account (so live tables are rated), and the account's seat resumed from a new connection."""

from __future__ import annotations

import asyncio
import random

import pytest
from argon2 import PasswordHasher
from sqlalchemy import select

from server.app import App
from server.history import accounts
from server.history.schema import rated_deals, rating_changes, ratings, seats
from server.node.archive import Archive
from server.settings import Settings

from ..deal_seeds import deal_from, ordinary, where
from .social_wire import PASSWORD, node, url_of
from .wire import Message, WireClient, play_until

__all__ = ["node"]  # the fixture (social_wire.py's), used by name


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2id with small parameters (still the real hash and checks): the default's
    64 MiB, 3 passes cost ~1 s a hash on this shared machine, and these tests make many."""
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


async def signed_up(app: App, name: str) -> tuple[WireClient, Message]:
    client = await WireClient.open(url_of(app))
    reply = await client.request(
        {"type": "sign_up", "name": name, "password": PASSWORD, "id": 1}, "signed_in"
    )
    return client, reply


async def hello(app: App, session: str | None) -> tuple[WireClient, Message]:
    client = await WireClient.open(url_of(app), hello=False)
    message: Message = {"type": "hello", "protocol": 1}
    if session is not None:
        message["session"] = session
    await client.send(message)
    return client, await client.recv()


async def seated_at_a_table_with_ai(client: WireClient) -> str:
    created = await client.request(
        {"type": "create_table", "options": {"deals": 1, "ai_level": "basic"}}, "table_created"
    )
    table_id: str = created["table"]["table_id"]
    await client.request({"type": "join", "table_id": table_id, "name": "ignored"}, "joined")
    return table_id


async def test_a_session_from_sign_up_signs_in_a_new_connection_until_signed_out(
    node: App,
) -> None:
    client, reply = await signed_up(node, "  Anna ")
    assert reply["account"]["name"] == "Anna" and reply["seats"] == [] and reply["re"] == 1
    token = reply["token"]
    _, welcome = await hello(node, token)
    assert welcome["type"] == "welcome" and welcome["account"] == reply["account"]
    assert welcome["seats"] == []
    assert (await client.request({"type": "sign_out"}, "signed_out"))["type"] == "signed_out"
    again, refused = await hello(node, token)
    assert (refused["type"], refused["code"]) == ("error", "bad_session")
    # The refused hello changed nothing: the connection is still to say hello.
    await again.send({"type": "ping"})
    assert (await again.recv())["code"] == "hello_required"
    await again.send({"type": "hello", "protocol": 1})
    assert "account" not in await again.recv()  # a guest's welcome, as before accounts


async def test_sign_in_refusals_keep_their_codes_and_change_nothing(node: App) -> None:
    client, _ = await signed_up(node, "Anna")
    for message, code in [
        ({"type": "sign_up", "name": "ANNA", "password": PASSWORD}, "name_taken"),
        ({"type": "sign_up", "name": "Bob\x1b[31m", "password": PASSWORD}, "bad_name"),
        ({"type": "sign_up", "name": "Bob", "password": "short"}, "bad_password"),
        ({"type": "sign_in", "name": "Anna", "password": "wrong password"}, "wrong_credentials"),
        ({"type": "resume", "table_id": "nosuchtable"}, "unknown_table"),
    ]:
        await client.send(message)
        answer = await client.recv()
        assert (answer["type"], answer["code"]) == ("error", code), (message, answer)
    guest = await WireClient.open(url_of(node))
    for message, code in [
        ({"type": "sign_out"}, "not_signed_in"),
        ({"type": "resume", "table_id": "abc"}, "not_signed_in"),
        ({"type": "resume", "table_id": "abc", "token": "abc.x"}, "invalid_message"),
    ]:
        await guest.send(message)
        assert (await guest.recv())["code"] == code, message
    signed = await guest.request(
        {"type": "sign_in", "name": "anna", "password": PASSWORD}, "signed_in"
    )
    assert signed["account"]["name"] == "Anna"


async def test_a_changed_password_keeps_this_session_and_signs_out_the_others(
    node: App,
) -> None:
    client, first = await signed_up(node, "Anna")
    elsewhere = await WireClient.open(url_of(node))
    other = await elsewhere.request(
        {"type": "sign_in", "name": "Anna", "password": PASSWORD}, "signed_in"
    )
    new = "a better horse, stapled"
    for message, code in [  # refused, and nothing changed: the old password still works
        ({"old_password": "not the password", "new_password": new}, "wrong_credentials"),
        ({"old_password": PASSWORD, "new_password": "short"}, "bad_password"),
    ]:
        await client.send({"type": "change_password", **message})
        assert (await client.recv())["code"] == code, message
    guest = await WireClient.open(url_of(node))
    await guest.send({"type": "change_password", "old_password": PASSWORD, "new_password": new})
    assert (await guest.recv())["code"] == "not_signed_in"
    changed = await client.request(
        {"type": "change_password", "old_password": PASSWORD, "new_password": new, "id": 7},
        "password_changed",
    )
    assert changed["re"] == 7
    _, welcome = await hello(node, first["token"])  # this session stays
    assert welcome["type"] == "welcome" and welcome["account"]["name"] == "Anna"
    _, refused = await hello(node, other["token"])  # the other device's is revoked
    assert refused["code"] == "bad_session"
    await guest.send({"type": "sign_in", "name": "Anna", "password": PASSWORD})
    assert (await guest.recv())["code"] == "wrong_credentials"
    await guest.request({"type": "sign_in", "name": "Anna", "password": new}, "signed_in")


async def test_a_node_without_a_history_database_keeps_no_accounts(url: str) -> None:
    client = await WireClient.open(url)
    await client.send({"type": "sign_up", "name": "Anna", "password": PASSWORD})
    assert (await client.recv())["code"] == "accounts_unavailable"
    _, refused = await hello_at(url, "some-session-token")
    assert refused["code"] == "accounts_unavailable"


async def hello_at(url: str, session: str) -> tuple[WireClient, Message]:
    client = await WireClient.open(url, hello=False)
    await client.send({"type": "hello", "protocol": 1, "session": session})
    return client, await client.recv()


async def test_the_account_takes_its_seat_back_after_a_reload_and_on_another_device(
    node: App,
) -> None:
    first, reply = await signed_up(node, "Anna")
    table_id = await seated_at_a_table_with_ai(first)
    seat, old_token = first.seat, first.token
    assert seat is not None and old_token is not None
    await first.request({"type": "start", "id": "s"}, "ack")  # the deal's events come first
    [hand] = [m for m in first.received if m["type"] == "event" and m["event"]["kind"] == "hand"]
    await first.close()  # a reload: the page's connection is gone
    # The reloaded page says hello with the session: its seat is named.
    device, welcome = await hello(node, reply["token"])
    assert welcome["seats"] == [{"table_id": table_id, "seat": seat}]
    joined = await device.request({"type": "resume", "table_id": table_id}, "joined")
    assert joined["seat"] == seat and joined["token"] != old_token
    snapshot = await device.until(lambda m: m["type"] == "snapshot")
    assert snapshot["view"]["hand"] and set(snapshot["view"]["hand"]) <= set(hand["event"]["cards"])
    # Another device signs in (name and password) and joins the table: the same seat comes
    # back to it, and the first device is told it was replaced.
    other = await WireClient.open(url_of(node))
    signed = await other.request(
        {"type": "sign_in", "name": "anna", "password": PASSWORD}, "signed_in"
    )
    assert signed["seats"] == [{"table_id": table_id, "seat": seat}]
    again = await other.request({"type": "join", "table_id": table_id}, "joined")
    assert again["seat"] == seat
    assert (await device.until(lambda m: m["type"] == "bye"))["reason"] == "replaced"
    stranger = await WireClient.open(url_of(node))
    await stranger.send({"type": "resume", "token": old_token})
    assert (await stranger.recv())["code"] == "bad_token"  # the old token no longer resumes


async def test_a_table_of_a_signed_in_player_and_three_ai_is_stored_with_the_account_unrated(
    node: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_from(monkeypatch, where("signin", ordinary))  # no petit sec before the bidding
    client, reply = await signed_up(node, "Anna")
    account_id = reply["account"]["id"]
    await seated_at_a_table_with_ai(client)
    await client.send({"type": "start"})
    over = await play_until(
        client,
        lambda m: m["type"] == "event" and m["event"]["kind"] == "table_over",
        random.Random(3),
    )
    assert over["event"]["kind"] == "table_over"
    archive = node.node.archive
    assert archive is not None and archive.engine is not None
    await archive.writer.flush()
    async with archive.engine.connect() as conn:
        sat = (await conn.execute(select(seats).where(seats.c.seat == client.seat))).all()
        changes = (await conn.execute(select(rating_changes))).all()
        rows = (await conn.execute(select(ratings))).all()
        looked_at = (await conn.execute(select(rated_deals))).all()
    assert sat and {row.account_id for row in sat} == {account_id}
    assert {row.guest_name for row in sat} == {None}
    # AI seats are no opponent (docs/RATINGS.md): alone among AI, nobody moves.
    assert not changes and not rows and len(looked_at) == 1 and not looked_at[0].rated


async def test_a_table_of_four_signed_in_players_moves_their_four_ratings_once(
    node: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_from(monkeypatch, where("signin-four", ordinary))
    players = [(await signed_up(node, name))[0] for name in ("Anna", "Bob", "Chloé", "David")]
    created = await players[0].request(
        {"type": "create_table", "options": {"deals": 1}}, "table_created"
    )
    table_id = created["table"]["table_id"]
    for seat, player in enumerate(players):
        await player.request({"type": "join", "table_id": table_id, "seat": seat}, "joined")
    # The fourth join starts the table; everyone plays at random until it is over.
    await asyncio.gather(
        *(
            play_until(
                p,
                lambda m: m["type"] == "event" and m["event"]["kind"] == "table_over",
                random.Random(i),
            )
            for i, p in enumerate(players)
        )
    )
    archive = node.node.archive
    assert archive is not None and archive.engine is not None
    await archive.writer.flush()
    async with archive.engine.connect() as conn:
        changes = (await conn.execute(select(rating_changes))).all()
        rows = (await conn.execute(select(ratings))).all()
    assert len(changes) == 4 and len({c.account_id for c in changes}) == 4
    assert len({(c.table_id, c.deal_number) for c in changes}) == 1  # the played deal, once
    # Four provisional ratings move by the same step: what one wins, the others lose.
    assert abs(sum(c.rating_after - c.rating_before for c in changes)) < 1e-6
    assert sorted(r.deals for r in rows) == [1, 1, 1, 1]


async def test_while_the_accounts_database_is_down_sign_in_is_refused_and_guests_play() -> None:
    """database_unavailable, nothing changed; a hello with a session is refused alike, and
    the same connection then plays as a guest."""
    archive = await Archive.open("postgresql://nobody@127.0.0.1:9/none")  # nothing listens
    app = await App.start(Settings(port=0), archive=archive)
    try:
        client = await WireClient.open(url_of(app))
        await client.send({"type": "sign_up", "name": "Anna", "password": PASSWORD})
        assert (await client.recv())["code"] == "database_unavailable"
        guest, refused = await hello(app, "a-session-token-from-before")
        assert refused["code"] == "database_unavailable"
        await guest.send({"type": "hello", "protocol": 1})
        assert (await guest.recv())["type"] == "welcome"
        await guest.request({"type": "create_table"}, "table_created")
    finally:
        await app.stop(drain_seconds=0)


async def test_issue27_11_a_guest_may_not_sit_under_an_account_s_name_or_a_look_alike(
    node: App,
) -> None:
    """An account's name is its own at every table: a guest asking for "Marie", or "Mаrie"
    with a Cyrillic а, is refused (``bad_name``); the account itself sits under it."""
    marie, _ = await signed_up(node, "Marie")
    table_id = await seated_at_a_table_with_ai(marie)  # a seat taken as the account
    other = await WireClient.open(url_of(node))
    created = await other.request({"type": "create_table"}, "table_created")
    for name in ("Marie", "MARIE", "M\u0430rie"):
        await other.send({"type": "join", "table_id": created["table"]["table_id"], "name": name})
        refused = await other.until(lambda m: m["type"] == "error")
        assert refused["code"] == "bad_name", refused
        assert "'Marie'" in refused["message"]
    await other.request(
        {"type": "join", "table_id": created["table"]["table_id"], "name": "Maria"}, "joined"
    )
    assert table_id


async def test_issue27_11_two_seats_of_a_table_never_show_one_name_or_look_alikes(
    node: App,
) -> None:
    host = await WireClient.open(url_of(node))
    created = await host.request({"type": "create_table"}, "table_created")
    table_id = created["table"]["table_id"]
    await host.request({"type": "join", "table_id": table_id, "name": "Chloé"}, "joined")
    for name in ("Chloé", "chloé", "Chl\u043ee\u0301"):  # the last: a Cyrillic о, a combining é
        guest = await WireClient.open(url_of(node))
        await guest.send({"type": "join", "table_id": table_id, "name": name})
        refused = await guest.until(lambda m: m["type"] == "error")
        assert refused["code"] == "bad_name", (name, refused)
    guest = await WireClient.open(url_of(node))
    await guest.request({"type": "join", "table_id": table_id, "name": "Chloe"}, "joined")


async def test_a_name_longer_than_its_maximum_as_sent_is_invalid_message_everywhere(
    node: App,
) -> None:
    """Issue 29.4: one code for a 41-character name. A sign_up took up to 200 (then
    bad_name) while a join's was refused by the schema (invalid_message)."""
    client = await WireClient.open(url_of(node))
    created = await client.request({"type": "create_table"}, "table_created")
    refused = [
        {"type": "sign_up", "name": "x" * 41, "password": PASSWORD},
        {"type": "join", "table_id": created["table"]["table_id"], "name": "x" * 41},
        {"type": "create_table", "options": {"name": "x" * 61}},
    ]
    for message in refused:
        await client.send(message)
        error = await client.until(lambda m: m["type"] == "error")
        assert error["code"] == "invalid_message", (message["type"], error)
    await client.request({"type": "sign_up", "name": "x" * 40, "password": PASSWORD}, "signed_in")
