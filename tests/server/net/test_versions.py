"""The server speaks versions 1 and 2 of the protocol (protocol/versions.py, PROTOCOL.md 3).

A connection's version is its subprotocol's (``tarot.v2.json`` speaks 2), or,
without one, its ``hello``'s; version 1 stays as its clients know it.
"""

from __future__ import annotations

from typing import Any

import pytest
from websockets.asyncio.client import connect

from protocol import versions
from protocol.errors import UnknownType

from ..wire import WireClient


async def hello(url: str, subprotocol: str | None, protocol: int) -> dict[str, Any]:
    """The answer to a ``hello`` with ``protocol`` on a connection offering ``subprotocol``."""
    offered = [subprotocol] if subprotocol else None
    async with connect(url, subprotocols=offered) as ws:  # type: ignore[arg-type]
        client = WireClient(ws, binary=False)
        await client.send({"type": "hello", "protocol": protocol})
        return await client.recv()


@pytest.mark.parametrize(
    ("subprotocol", "protocol"),
    [("tarot.v2.json", 2), ("tarot.v1.json", 1), (None, 2), (None, 1)],
)
async def test_each_version_is_spoken_on_its_own_subprotocol_or_without_one(
    url: str, subprotocol: str | None, protocol: int
) -> None:
    welcome = await hello(url, subprotocol, protocol)
    assert (welcome["type"], welcome["protocol"]) == ("welcome", protocol)


async def test_a_hello_of_another_version_than_the_subprotocol_s_is_refused(url: str) -> None:
    refused = await hello(url, "tarot.v1.json", 2)
    assert refused["code"] == "unsupported_version"
    assert "tarot.v1" in refused["message"]


async def test_a_version_the_server_does_not_speak_is_refused(url: str) -> None:
    refused = await hello(url, None, 3)
    assert refused["code"] == "unsupported_version"
    assert refused["message"] == "protocol 3 is not supported; this server speaks 1 and 2"


def test_a_version_1_connection_gets_unknown_type_for_what_came_after() -> None:
    versions.check_accepts(1, "join")
    later = "a_version_2_type"
    original = versions.CLIENT_TYPES[2]
    versions.CLIENT_TYPES[2] = original | {later}
    try:
        versions.check_accepts(2, later)
        with pytest.raises(UnknownType):
            versions.check_accepts(1, later)
    finally:
        versions.CLIENT_TYPES[2] = original
