"""The spectator count of a table, told live to its followers (protocol 2).

A table's ``snapshot`` carries how many spectators follow it
(``table.spectators``); the count then changes as spectators come and go,
and version 2 followers are told with a ``spectators`` message
(docs/PROTOCOL.md, section 17) each time it moves. A version 1 follower
gets nothing new: version 1 is frozen. Each node counts the spectators it
serves, as the snapshot does (a table's followers are routed to one node).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from protocol import Codec
from protocol import models as m


class Follower(Protocol):
    codec: Codec
    version: int

    @property
    def seat(self) -> int | None: ...

    def send_frame(self, frame: str | bytes) -> None: ...


def count(followers: Iterable[Follower]) -> int:
    return sum(1 for f in followers if f.seat is None)


class Watchers:
    """The count last told at one table: a change is told once, to every follower."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.told = 0

    def tell(self, followers: Iterable[Follower], newcomer: Follower | None = None) -> None:
        """Tell the followers if the count moved; else ``newcomer`` alone (one who got no
        snapshot: its missed events were replayed)."""
        everyone = list(followers)
        now = count(everyone)
        if now != self.told:
            self.told = now
            to = everyone
        else:
            to = [newcomer] if newcomer is not None else []
        message = m.Spectators(table_id=self.table_id, count=now)
        for follower in to:
            if follower.version >= 2:
                follower.send_frame(follower.codec.encode(message))
