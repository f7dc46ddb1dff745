"""The client library signs in (docs/PROTOCOL.md, "Accounts"; docs/CLIENTS.md), against a
real node keeping its history in a real SQLite file: ``sign_up`` and ``sign_in`` return
the session token, ``Client.connect(session=...)`` comes back as the account with its
seat, ``sign_out`` ends the session."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from clients.python import Client, Refused
from protocol import models as m
from server.app import App
from server.history import accounts
from server.node.archive import Archive
from server.settings import Settings

from .test_reconnect import drop_connections

PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2id with small parameters (still the real hash and checks): the default costs
    ~1 s a hash on this shared machine."""
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


@pytest.fixture
async def node(tmp_path: Path) -> AsyncIterator[App]:
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    app = await App.start(Settings(port=0, next_deal_seconds=30), archive=archive)
    try:
        yield app
    finally:
        await app.stop(drain_seconds=0)


@pytest.fixture
def url(node: App) -> str:
    return f"ws://127.0.0.1:{node.port}/"


async def test_sign_up_then_connect_with_the_token_as_the_account_with_its_seat(url: str) -> None:
    async with await Client.connect(url) as first:
        assert first.account is None and first.session is None
        token = await first.sign_up("Alice", PASSWORD)
        assert first.account is not None and first.account.name == "Alice"
        assert first.session == token
        created = await first.create_table(m.TableOptions(deals=1, ai_level="basic"))
        table_id = created.table.table_id
        await first.join(table_id, seat=2)
    async with await Client.connect(url, session=token) as again:
        assert again.account is not None and again.account.name == "Alice"
        assert again.held_seats == [m.HeldSeat(table_id=table_id, seat=2)]
        state = await again.resume(table_id=table_id)
        assert state.seat == 2


async def test_sign_in_returns_a_new_token_and_sign_out_ends_it(url: str) -> None:
    async with await Client.connect(url) as client:
        first = await client.sign_up("Bob", PASSWORD)
    async with await Client.connect(url) as client:
        with pytest.raises(Refused) as refused:
            await client.sign_in("bob", "not the password")
        assert refused.value.code == "wrong_credentials"
        assert client.account is None and client.session is None  # nothing changed
        second = await client.sign_in("bob", PASSWORD)  # the name in any case
        assert second != first and client.session == second
        await client.sign_out()
        assert client.account is None and client.session is None
    with pytest.raises(Refused) as gone:
        await Client.connect(url, session=second)
    assert gone.value.code == "bad_session"
    async with await Client.connect(url, session=first) as other:  # another device's session
        assert other.account is not None and other.account.name == "Bob"


async def test_a_look_alike_of_an_accounts_name_is_refused_over_the_wire(url: str) -> None:
    """Issue 27.11: "Mаrie" (a Cyrillic а) registered beside "Marie"."""
    async with await Client.connect(url) as marie:
        await marie.sign_up("Marie", PASSWORD)
    async with await Client.connect(url) as other:
        with pytest.raises(Refused) as refused:
            await other.sign_up("M\u0430rie", PASSWORD)
        assert refused.value.code == "name_taken"
        assert "looks like 'Marie', which is taken" in refused.value.message
        assert other.account is None and other.session is None


async def test_a_dropped_client_reconnects_signed_in_or_as_a_guest_once_signed_out(
    node: App, url: str
) -> None:
    async with await Client.connect(url) as setup:
        token = await setup.sign_up("Chloé", PASSWORD)
        table_id = (await setup.create_table(m.TableOptions(deals=1))).table.table_id
        await setup.join(table_id, seat=1)
    client = await Client.connect(url, session=token)
    try:
        await client.resume(table_id=table_id)
        assert client.account is not None
        await drop_connections(node)
        await reconnected(client, 1)
        assert client.session == token  # its new hello said the session: still the account
        assert [c.signing.account_id for c in node.connections] == [client.account.id]
        # Another device changes the password: this session is revoked. After the next drop
        # the client says hello as a guest and takes its seat back by the seat's token.
        async with await Client.connect(url) as other:
            await other.sign_in("chloé", PASSWORD)
            with pytest.raises(Refused) as wrong:
                await other.change_password("not the password", "a new passphrase")
            assert wrong.value.code == "wrong_credentials"
            await other.change_password(PASSWORD, "a new passphrase")
        await drop_connections(node)
        await reconnected(client, 2)
        assert client.session is None
        assert [c.signing.account_id for c in node.connections] == [None]
        await client.ping()
        assert client.state is not None and client.state.seat == 1
        assert client.state.token is not None
    finally:
        await client.close()


async def reconnected(client: Client, times: int) -> None:
    async with asyncio.timeout(10):
        while client.reconnections < times:
            await asyncio.sleep(0.02)
