"""A connection's protocol state: which phase it is in and what that allows.

Theory of operation: a connection is NEW until its ``hello``; then it is in
the LOBBY (it may list, create, sign in); a join, a resume or a reclaim
SEATS it at a table (seat, and the seat's session it holds); a watch makes it
WATCHING a table. Leaving, the table being lost, or the seat being resumed by
another connection (replaced) takes it back to the LOBBY; a spectator taking
a seat goes from WATCHING to SEATED. CLOSED is the end: the socket is gone.

Sans-I/O: the state is a frozen value, each transition a pure function that
returns the next state or raises the typed error the wire answers with (the
same codes the connection always answered). ``check_accepts`` says, for a
phase, which message types it takes: that is decided here and nowhere else.
The table is generic: the server keeps its ``TableRuntime`` there, tests
anything with a ``table_id``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from protocol import versions
from protocol.errors import HelloRequired
from server.errors import ServerError
from server.table.refusals import TableRefused


class Followed(Protocol):
    """What the state needs of a table: its id, for the refusals that name it."""

    @property
    def table_id(self) -> str: ...


T = TypeVar("T", bound=Followed)


class ConnectionPhase(enum.Enum):
    NEW = "new"  # before hello
    LOBBY = "lobby"
    SEATED = "seated"
    WATCHING = "watching"
    CLOSED = "closed"


class ConnectionClosedError(ServerError):
    """A transition asked of a closed connection: a bug, never a wire answer."""

    code = "closed"  # beside the refusals' codes in tests/server/net/test_connection_state.py


@dataclass(frozen=True, slots=True)
class ConnectionState(Generic[T]):
    """The phase, and the table, seat and session that go with it (and only with it)."""

    phase: ConnectionPhase = ConnectionPhase.NEW
    table: T | None = None  # SEATED and WATCHING
    seat: int | None = None  # SEATED only
    session: int = 0  # SEATED only: the seat's session this connection holds

    def __post_init__(self) -> None:
        follows = self.phase in (ConnectionPhase.SEATED, ConnectionPhase.WATCHING)
        seated = self.phase is ConnectionPhase.SEATED
        if (self.table is not None) != follows or (self.seat is not None) != seated:
            raise ValueError(f"a {self.phase.value} connection with table and seat mismatched")
        if not seated and self.session != 0:
            raise ValueError(f"a {self.phase.value} connection holds no session")


_GREETED = (ConnectionPhase.LOBBY, ConnectionPhase.SEATED, ConnectionPhase.WATCHING)
_FOLLOWING = (ConnectionPhase.SEATED, ConnectionPhase.WATCHING)
# The message types only some greeted phases take; every other one is taken by all.
_ONLY_IN: dict[str, tuple[ConnectionPhase, ...]] = {
    "join": (ConnectionPhase.LOBBY,),
    "watch": (ConnectionPhase.LOBBY,),
    "duplicate_play": (ConnectionPhase.LOBBY,),
    "resume": (ConnectionPhase.LOBBY, ConnectionPhase.WATCHING),
    "start": (ConnectionPhase.SEATED,),
    "act": (ConnectionPhase.SEATED,),
    "next_deal": (ConnectionPhase.SEATED,),
    "leave": _FOLLOWING,
    "queue": (ConnectionPhase.LOBBY,),  # quick play: from the lobby only
    "ready": (ConnectionPhase.LOBBY,),
    "play_now": (ConnectionPhase.LOBBY,),
    "chat": _FOLLOWING,
    "report": _FOLLOWING,
    "rematch": (ConnectionPhase.SEATED,),
}


def _alive(state: ConnectionState[T]) -> None:
    if state.phase is ConnectionPhase.CLOSED:
        raise ConnectionClosedError("this connection is closed")
    if state.phase is ConnectionPhase.NEW:
        raise HelloRequired("say hello first (with the protocol version)")


def _refusal(state: ConnectionState[T], message_type: str) -> TableRefused:
    """Why ``state`` does not take ``message_type`` (a greeted phase)."""
    if message_type in ("join", "watch", "duplicate_play") and state.table is not None:
        return TableRefused(
            "already_seated", f"this connection already follows table {state.table.table_id}"
        )
    if message_type in ("queue", "ready", "play_now") and state.table is not None:
        return TableRefused(
            "already_seated",
            f"this connection follows table {state.table.table_id}: leave it to play another",
        )
    if message_type == "resume":
        return TableRefused("already_seated", "this connection already holds a seat")
    if message_type in ("leave", "chat", "report"):
        return TableRefused("not_seated", "this connection follows no table")
    return TableRefused("not_seated", "this connection holds no seat")


def check_accepts(state: ConnectionState[T], message_type: str) -> None:
    """Refuse a message (by its wire ``type``) that ``state``'s phase does not take.

    ``hello`` is taken in every live phase (a greeted connection may greet again).
    """
    if message_type == "hello" and state.phase is not ConnectionPhase.CLOSED:
        return
    _alive(state)
    allowed = _ONLY_IN.get(message_type, _GREETED)
    if state.phase not in allowed:
        raise _refusal(state, message_type)


class Speaker(Protocol):
    """What ``admits`` reads of a connection: its state and protocol version now."""

    state: ConnectionState[Any]
    version: int


def check_admits(state: ConnectionState[T], version: int, message_type: str) -> None:
    """The checks that come before a message's schema (docs/PROTOCOL.md, "Which error
    wins"): ``hello`` first, then a type of the connection's protocol version."""
    if message_type != "hello" and state.phase is ConnectionPhase.NEW:
        raise HelloRequired("say hello first (with the protocol version)")
    versions.check_accepts(version, message_type)


def admits(conn: Speaker) -> Callable[[str], None]:
    """``check_admits`` for ``conn`` as it is now: the codec asks it before the schema."""
    return lambda message_type: check_admits(conn.state, conn.version, message_type)


def on_hello(state: ConnectionState[T]) -> ConnectionState[T]:
    """A welcome: NEW goes to the LOBBY; a greeted connection stays where it is."""
    if state.phase is ConnectionPhase.CLOSED:
        raise ConnectionClosedError("this connection is closed")
    if state.phase is ConnectionPhase.NEW:
        return ConnectionState(ConnectionPhase.LOBBY)
    return state


def on_sit(state: ConnectionState[T], table: T, seat: int, session: int) -> ConnectionState[T]:
    """A join, resume or reclaim seated it (a spectator too: it stops watching)."""
    _alive(state)
    if state.phase is ConnectionPhase.SEATED:
        raise _refusal(state, "resume")
    return ConnectionState(ConnectionPhase.SEATED, table, seat, session)


def on_watch(state: ConnectionState[T], table: T) -> ConnectionState[T]:
    """A watch: from the LOBBY only."""
    _alive(state)
    if state.phase is not ConnectionPhase.LOBBY:
        raise _refusal(state, "watch")
    return ConnectionState(ConnectionPhase.WATCHING, table)


def on_leave(state: ConnectionState[T]) -> ConnectionState[T]:
    """A leave: a seat or a watch back to the LOBBY."""
    _alive(state)
    if state.phase not in _FOLLOWING:
        raise _refusal(state, "leave")
    return ConnectionState(ConnectionPhase.LOBBY)


def on_drop(state: ConnectionState[T]) -> ConnectionState[T]:
    """The table let go of it (lost, or the seat replaced): back to the LOBBY.

    Taken in the LOBBY too: the news may come after the connection left by itself; and
    after it closed, when it changes nothing. It never raises there, because the table
    tells its followers one after another: one that raised would keep the news from
    the followers after it.
    """
    if state.phase is ConnectionPhase.CLOSED:
        return state
    _alive(state)
    return ConnectionState(ConnectionPhase.LOBBY)


def on_close(state: ConnectionState[T]) -> ConnectionState[T]:
    """The socket is gone: nothing follows (closing twice is a bug)."""
    if state.phase is ConnectionPhase.CLOSED:
        raise ConnectionClosedError("this connection is already closed")
    return ConnectionState(ConnectionPhase.CLOSED)
