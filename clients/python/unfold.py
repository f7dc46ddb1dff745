"""Version 2's folded frames, unfolded into the messages this library hands out.

A version 2 server sends one ``events`` frame per commit, with the seat's
``your_turn`` and the ``re`` of the request that made it folded in, and a
``snapshot`` may carry the seat's turn (docs/PROTOCOL.md, sections 5 and 9).
The library's readers (``TableState``, ``Bot``, the terminal client) take
them as what version 1 sends: each ``event`` in order, then the ``your_turn``,
then the ``ack`` of the request. Nothing is lost or added in the unfolding.
"""

from __future__ import annotations

from protocol import ServerMessage
from protocol import models as m

__all__ = ["unfold"]


def unfold(message: ServerMessage) -> list[ServerMessage]:
    """``message`` as version 1's messages (itself, unless it is a folded frame)."""
    match message:
        case m.Events(table_id=table_id, events=events, your_turn=turn, re=re):
            out: list[ServerMessage] = [
                m.Event(table_id=table_id, seq=e.seq, event=e.event) for e in events
            ]
            if turn is not None:
                out.append(_your_turn(table_id, turn))
            if re is not None:
                seq = events[-1].seq if events else (turn.seq if turn is not None else 0)
                out.append(m.Ack(re=re, table_id=table_id, seq=seq))
            return out
        case m.Snapshot(your_turn=turn) if turn is not None:
            bare = message.model_copy(update={"your_turn": None})
            return [bare, _your_turn(message.table_id, turn)]
    return [message]


def _your_turn(table_id: str, turn: m.TurnOffer) -> m.YourTurn:
    return m.YourTurn(
        table_id=table_id, seq=turn.seq, legal=turn.legal, deadline_ms=turn.deadline_ms
    )
