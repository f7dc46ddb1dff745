"""Which frames each local follower of a table gets, and when: the delivery core, sans I/O.

Theory of operation. A node hears a table's events from several places: its
own commits, other nodes' commits over pub/sub (late, reordered, repeated),
and the event log it reads to fill a gap or replay a resume. ``Delivery``
takes them all, in any order, and decides what goes out; it never does I/O.
Its answers are lists of ``Out`` values for the runtime to carry out.

- ``known`` is the last event number of the table data the node holds, and
  ``delivered`` the last handed to the local followers, in order, never past
  ``known`` (the log may hold newer events than the data: they wait, so a
  snapshot or a ``your_turn`` built from the data never lags behind what was
  sent). Events above it wait in ``pending``; a gap asks for a ``Fetch``.
- Each follower (``Feed``) has a cursor, the last number it has. A follower
  being prepared (its replay being read, its snapshot on the way) is not
  ``live``: nothing live reaches it until it is, so replayed and live events
  never interleave. Replayed events go out through ``replay``, in order.
- An event reaches every live follower whose cursor is below it once:
  itself to its audience, a bare ``hidden`` marker to the others.
- ``your_turn`` (``SendTurn``) goes to the seat to act exactly once per turn
  and connection, and only once the follower has every event before the turn
  (its cursor is at or past the turn's event): never ahead of the events that
  led to it, never lost behind a replay. Once more only when the connection's
  answer is known not to have been applied (``ask_again``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .data import StoredEvent

K = TypeVar("K")  # a follower: anything hashable (the runtime uses its connections)


@dataclass(frozen=True, slots=True)
class Turn:
    """Whose turn it is: the seat, since which event, and its deadline."""

    seq: int  # the event number of the ``turn`` event (or a number at or after it)
    seat: int
    deadline_ms: int | None


@dataclass(slots=True)
class Feed:
    """One local follower's place in the table's events."""

    seat: int | None
    cursor: int = 0
    live: bool = False
    turn_sent: Turn | None = None
    # The follower's own say on what it is shown (chat: server/table/chat_rules.shown_to).
    shows: Callable[[StoredEvent], bool] | None = None

    def sees(self, event: StoredEvent) -> bool:
        seen = event.audience is None or (self.seat is not None and self.seat in event.audience)
        return seen and (self.shows is None or self.shows(event))


# Not frozen: one is made per event and follower, ten an action, and a frozen dataclass's
# ``__init__`` sets each field through ``object.__setattr__`` (twice the cost). Nothing
# changes them once made.
@dataclass(slots=True)
class SendEvent(Generic[K]):
    key: K
    event: StoredEvent
    visible: bool  # False: a ``hidden`` marker with the event's number


@dataclass(frozen=True, slots=True)
class SendTurn(Generic[K]):
    key: K
    turn: Turn
    seq: int  # the follower's last event number: every event before the turn was sent


@dataclass(frozen=True, slots=True)
class Fetch:
    """Read the table's event log after ``after`` and hand the result to ``fetched``."""

    after: int


@dataclass(frozen=True, slots=True)
class SendSnapshot(Generic[K]):
    """The log no longer holds what this follower misses: a snapshot instead."""

    key: K


Out = SendEvent[K] | SendTurn[K] | Fetch | SendSnapshot[K]


@dataclass
class Delivery(Generic[K]):
    """The delivery state of one table on one node."""

    delivered: int = 0
    known: int = 0
    pending: dict[int, StoredEvent] = field(default_factory=dict)
    feeds: dict[K, Feed] = field(default_factory=dict)
    turn: Turn | None = None
    fetching: bool = False

    # ------------------------------------------------------------ the table's events

    def receive(self, events: Iterable[StoredEvent]) -> list[Out[K]]:
        """Events from anywhere (a commit, an update, the log), in any order, maybe again."""
        pending, delivered = self.pending, self.delivered
        for event in events:
            if event.seq > delivered:
                pending.setdefault(event.seq, event)
        out: list[Out[K]] = []
        feeds = self.feeds.items()
        while delivered < self.known and delivered + 1 in pending:
            event = pending.pop(delivered + 1)
            delivered = self.delivered = event.seq
            for key, feed in feeds:
                if feed.live and feed.cursor < delivered:
                    feed.cursor = delivered
                    out.append(SendEvent(key, event, feed.sees(event)))
        if self.delivered < self.known and not self.fetching:
            self.fetching = True
            out.append(Fetch(self.delivered))
        out += self._turns()
        return out

    def advance(self, seq: int) -> list[Out[K]]:
        """The node's table data is now numbered ``seq``: deliver (or fetch) up to it."""
        self.known = max(self.known, seq)
        return self.receive([])

    def fetched(self, events: list[StoredEvent] | None, table_seq: int) -> list[Out[K]]:
        """The answer to a ``Fetch``: the events, or None when the log lost some of them.

        Without them every live follower gets a snapshot (numbered ``table_seq``)
        and delivery goes on from there.
        """
        self.fetching = False
        if events is not None:
            return self.receive(events)
        out: list[Out[K]] = []
        self.known = max(self.known, table_seq)
        self.delivered = max(self.delivered, table_seq)
        self.pending = {s: e for s, e in self.pending.items() if s > self.delivered}
        for key, feed in self.feeds.items():
            if feed.live and feed.cursor < table_seq:
                out.append(SendSnapshot(key))
                feed.cursor = table_seq
        return out + self.receive([])

    def set_turn(self, turn: Turn | None) -> list[Out[K]]:
        """The table's current turn changed (or None: nobody is to act)."""
        self.turn = turn
        return self._turns()

    def restart(self, table_seq: int) -> None:
        """Start again from the store's ``table_seq`` (it lost commits): everyone is re-sent."""
        self.delivered = self.known = table_seq
        self.pending.clear()
        self.fetching = False
        for feed in self.feeds.values():
            feed.cursor = table_seq
            feed.live = False
            feed.turn_sent = None

    # ------------------------------------------------------------ followers

    def add(
        self,
        key: K,
        seat: int | None,
        cursor: int,
        shows: Callable[[StoredEvent], bool] | None = None,
    ) -> None:
        """A follower that has events up to ``cursor``; held back until ``snapshot`` or
        ``replay`` has brought it up to date. ``shows``: which events it may see, beside
        their audience (None: all those)."""
        self.feeds[key] = Feed(seat, cursor, shows=shows)

    def remove(self, key: K) -> None:
        self.feeds.pop(key, None)

    def replay_from(self, key: K) -> int | None:
        """The number after which the follower's replay must read the log (None: done)."""
        feed = self.feeds[key]
        return feed.cursor if feed.cursor < self.delivered else None

    def replay(self, key: K, events: list[StoredEvent]) -> list[Out[K]] | None:
        """Events read from the log for a follower's replay; None if they do not follow on
        from its cursor (the log lost some): it needs a snapshot instead."""
        feed = self.feeds.get(key)
        if feed is None:
            return []  # gone meanwhile
        if not events or events[0].seq > feed.cursor + 1:
            return None
        out: list[Out[K]] = []
        for event in events:
            if feed.cursor < event.seq <= self.delivered and event.seq == feed.cursor + 1:
                feed.cursor = event.seq
                out.append(SendEvent(key, event, feed.sees(event)))
        return out

    def snapshot(self, key: K, seq: int) -> list[Out[K]]:
        """The follower was sent a snapshot numbered ``seq``: it goes live."""
        feed = self.feeds.get(key)
        if feed is None:
            return []
        feed.cursor = max(feed.cursor, seq)
        return self.go_live(key)

    def go_live(self, key: K) -> list[Out[K]]:
        """The follower is up to date (replay finished): live events and turns reach it."""
        feed = self.feeds.get(key)
        if feed is None:
            return []
        feed.live = True
        return self._turns()

    # ------------------------------------------------------------ turns

    def ask_again(self, key: K) -> list[Out[K]]:
        """The follower's answer to its turn is known not to have been applied (it met
        ``outcome_unknown``): the turn is asked again, on this connection only."""
        feed = self.feeds.get(key)
        if feed is None:
            return []
        feed.turn_sent = None
        return self._turns()

    def _turns(self) -> list[Out[K]]:
        turn = self.turn
        if turn is None:
            return []
        out: list[Out[K]] = []
        for key, feed in self.feeds.items():
            if (
                feed.live
                and feed.seat == turn.seat
                and feed.cursor >= turn.seq
                and feed.turn_sent != turn
            ):
                feed.turn_sent = turn
                out.append(SendTurn(key, turn, feed.cursor))
        return out
