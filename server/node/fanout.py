"""The frames of what the delivery core decided: built once per audience, then sent.

``Delivery`` (server/table/delivery.py) says which follower gets which event,
turn or snapshot, in order; this module turns its answers into frames.

- Version 1 connections get one ``event`` frame per event and a separate
  ``your_turn`` (the runtime's ``ack`` follows), byte for byte as always.
- Version 2 connections get what one carry holds for them folded into as few
  frames as its order allows: consecutive events in one ``events`` frame, the
  ``your_turn`` that follows them folded into it (or into the ``snapshot`` it
  follows), and the ``re`` of the request that made the change on the
  connection that asked (``Asked``): one frame per reader per commit.

Each event's wire body is made from its stored form (``protocol.frames.wire_event``)
once per carry, for every reader; a frame is encoded once per distinct content and
codec: the public batch of a commit (every spectator and seat not to act) is
encoded once and its bytes reused; only the frames carrying a turn or a ``re`` are
encoded apart. The bodies and frames themselves are built in ``protocol.frames``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import engine
from protocol import Codec
from protocol import models as m
from protocol.frames import (
    HIDDEN,
    appended,
    event_frame,
    events_frame,
    folded_extra,
    folded_turn,
    snapshot_frame,
    wire_event,
    your_turn_json,
)
from server.table.data import StoredEvent
from server.table.delivery import Fetch, Out, SendEvent, SendSnapshot, SendTurn, Turn

__all__ = ["Asked", "Fanout", "Reader"]

FOLDING_VERSION = 2  # the first version whose connections get ``events`` frames
Bodies = dict[int, dict[str, Any]]  # the wire body of each event of a carry, by number


class Reader(Protocol):
    """What a follower needs to be sent frames (the runtime's ``Subscriber`` is one)."""

    codec: Codec
    version: int

    @property
    def seat(self) -> int | None: ...

    def send_frame(self, frame: str | bytes) -> None: ...


R = TypeVar("R", bound=Reader)


@dataclass(slots=True)
class Asked(Generic[R]):
    """A request (``start``, ``act``, ``next_deal``) of a version 2 connection: its ``re``
    goes in the ``events`` frame of the change it made; ``answered`` once it went."""

    key: R
    id: m.RequestId
    answered: bool = False


@dataclass(slots=True)
class _Batch:
    """One frame to come for a version 2 follower: a snapshot, or a batch of events;
    either may carry the turn that follows it."""

    snapshot: bool
    events: list[tuple[StoredEvent, bool]] = field(default_factory=list)
    seen: int = 1  # which of the events are visible, one bit each after a leading 1
    turn: dict[str, Any] | None = None  # the your_turn folded in: seq, legal, deadline_ms
    re: m.RequestId | None = None


class Fanout:
    """Carries out one table's delivery answers (see the module docstring)."""

    def __init__(
        self,
        table_id: str,
        legal: Callable[[Turn], engine.Legal | None],
        snapshot: Callable[[int | None], m.Snapshot],
    ) -> None:
        self.table_id = table_id
        self.legal = legal  # the legal choices of a turn, None if it is not current
        self.snapshot = snapshot

    def carry(self, outs: Iterable[Out[R]], asked: Asked[R] | None = None) -> bool:
        """Send the frames of ``outs``; True when a ``Fetch`` was among them."""
        fetch = False
        bodies: Bodies = {}
        v1: dict[tuple[int, str, bool], str | bytes] = {}
        folded: dict[R, list[_Batch]] = {}
        for out in outs:
            if isinstance(out, Fetch):
                fetch = True
                continue
            if out.key.version < FOLDING_VERSION:
                self._send_v1(out, v1, bodies)
            else:
                self._fold(folded, out)
        if asked is not None:
            _answer(folded.get(asked.key), asked)
        shared: dict[tuple[Any, ...], str | bytes] = {}
        for sub, batches in folded.items():
            for batch in batches:
                sub.send_frame(self._frame(sub, batch, shared, bodies))
        return fetch

    # ------------------------------------------------------------ version 1

    def _send_v1(
        self,
        out: SendEvent[R] | SendTurn[R] | SendSnapshot[R],
        frames: dict[tuple[int, str, bool], str | bytes],
        bodies: Bodies,
    ) -> None:
        sub = out.key
        if isinstance(out, SendEvent):
            event = out.event
            key = (event.seq, sub.codec.name, out.visible)
            frame = frames.get(key)
            if frame is None:
                body = _body(event, bodies) if out.visible else HIDDEN
                frame = frames[key] = sub.codec.dumps(event_frame(self.table_id, event.seq, body))
            sub.send_frame(frame)
        elif isinstance(out, SendTurn):
            self._send_turn(sub, out.seq, out.turn)
        else:
            sub.send_frame(sub.codec.encode(self.snapshot(sub.seat)))

    def _send_turn(self, sub: Reader, seq: int, turn: Turn) -> None:
        legal = self.legal(turn)
        if legal is None:
            return  # the core's turn is always the current one; a guard, not a path
        sub.send_frame(sub.codec.dumps(your_turn_json(self.table_id, seq, legal, turn.deadline_ms)))

    # ------------------------------------------------------------ version 2

    def _fold(
        self, folded: dict[R, list[_Batch]], out: SendEvent[R] | SendTurn[R] | SendSnapshot[R]
    ) -> None:
        batches = folded.get(out.key)
        if type(out) is SendEvent:  # the hot path: an event, most often one more of a batch
            last = batches[-1] if batches else None
            if last is None or last.snapshot or last.turn is not None:
                last = _Batch(snapshot=False)
                folded.setdefault(out.key, []).append(last)
            last.events.append((out.event, out.visible))
            last.seen = last.seen << 1 | out.visible
            return
        if batches is None:
            batches = folded[out.key] = []
        if isinstance(out, SendSnapshot):
            batches.append(_Batch(snapshot=True))
        elif isinstance(out, SendTurn):
            legal = self.legal(out.turn)
            if legal is None:
                return
            last = batches[-1] if batches else None
            if last is None or last.turn is not None:
                last = _Batch(snapshot=False)
                batches.append(last)
            last.turn = folded_turn(out.seq, legal, out.turn.deadline_ms)

    def _frame(
        self,
        sub: Reader,
        batch: _Batch,
        shared: dict[tuple[Any, ...], str | bytes],
        bodies: Bodies,
    ) -> str | bytes:
        codec = sub.codec
        if batch.snapshot:
            return codec.dumps(snapshot_frame(self.snapshot(sub.seat), batch.turn))
        # The events are the same for every follower that sees them alike: encoded once,
        # and the turn or the ``re`` of one follower appended to those bytes.
        key = (codec.name, batch.events[0][0].seq if batch.events else 0, batch.seen)
        frame = shared.get(key)
        if frame is None:
            events = [
                (e.seq, _body(e, bodies) if visible else HIDDEN) for e, visible in batch.events
            ]
            frame = shared[key] = codec.dumps(events_frame(self.table_id, events))
        if batch.turn is None and batch.re is None:
            return frame
        return appended(frame, folded_extra(batch.turn, batch.re))


def _answer(batches: list[_Batch] | None, asked: Asked[R]) -> None:
    """The ``re`` goes with the asker's last batch of events, if it got one."""
    if batches and not batches[-1].snapshot and batches[-1].events:
        batches[-1].re = asked.id
        asked.answered = True


def _body(event: StoredEvent, bodies: Bodies) -> dict[str, Any]:
    """The wire body of ``event``, made once per carry whatever the readers."""
    body = bodies.get(event.seq)
    if body is None:
        body = bodies[event.seq] = wire_event(event.event)
    return body
