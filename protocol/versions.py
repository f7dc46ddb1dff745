"""Which versions of the protocol this server speaks, and what a client may send in each.

A connection's version is the one its ``hello`` names (and its subprotocol, when
it asked for one: ``tarot.v2.json`` speaks 2). Version 1 is kept as it was
for the clients written against it; what came after is version 2's alone
(docs/PROTOCOL.md, section 3), and a version 1 connection that sends it gets
``unknown_type``.
"""

from __future__ import annotations

from .errors import UnknownType, UnsupportedVersion

SUPPORTED_VERSIONS = (1, 2)
CURRENT_VERSION = SUPPORTED_VERSIONS[-1]

# The client messages of version 1, as it was frozen.
V1_CLIENT_TYPES = frozenset(
    {
        "hello",
        "sign_up",
        "sign_in",
        "sign_out",
        "change_password",
        "list_tables",
        "create_table",
        "join",
        "watch",
        "resume",
        "start",
        "act",
        "next_deal",
        "leave",
        "ping",
        "review_deal",
        "review_stored_deal",
    }
)
# Version 2's own client messages (PROTOCOL.md lists each with the section it is in).
V2_CLIENT_TYPES: frozenset[str] = frozenset(
    {
        "queue",  # section 16, quick play
        "cancel_queue",
        "ready",
        "play_now",
        "duplicate_list",  # section 18, duplicate events
        "duplicate_enter",
        "duplicate_play",
        "duplicate_show",
        "chat",  # section 17, chat and rematch
        "mute",
        "unmute",
        "block",
        "report",
        "rematch",
    }
)
CLIENT_TYPES = {1: V1_CLIENT_TYPES, 2: V1_CLIENT_TYPES | V2_CLIENT_TYPES}


def speaks(version: int) -> str:
    """What to tell a client whose version is refused."""
    return " and ".join(str(v) for v in SUPPORTED_VERSIONS)


def check_version(asked: int, subprotocol_version: int | None) -> int:
    """The version of a connection whose ``hello`` asks ``asked``; ``UnsupportedVersion``
    if this server does not speak it, or the connection's subprotocol named another."""
    if asked not in SUPPORTED_VERSIONS:
        raise UnsupportedVersion(
            f"protocol {asked} is not supported; this server speaks {speaks(asked)}"
        )
    if subprotocol_version is not None and asked != subprotocol_version:
        raise UnsupportedVersion(
            f"protocol {asked} on a tarot.v{subprotocol_version} connection: say hello with"
            f" protocol {subprotocol_version}, or connect with tarot.v{asked}"
        )
    return asked


def check_accepts(version: int, message_type: str) -> None:
    """``UnknownType`` for a message of a later version than the connection's."""
    if message_type not in CLIENT_TYPES[version]:
        raise UnknownType(f"unknown message type {message_type!r} in protocol {version}")
