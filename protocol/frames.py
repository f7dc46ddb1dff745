"""The frames and bodies the server builds by hand, without the models, in one place.

The hot path sends a few frames per action to every reader of a table; a
pydantic model cost ~9 us each (tests/protocol/test_fast_replies.py pins the
hand-built bodies equal to the models' dumps, tests/server/node/test_v1_frames.py
the version 1 bytes). Here:

- ``wire_event``: the wire body of a stored event (server/table/stored_events.py,
  form 1: engine terms; form 0: the wire body itself, from tables stored before);
- ``event_frame`` and ``events_frame``: version 1's ``event``, version 2's ``events``;
- ``your_turn_json`` and ``legal_json``: the turn a seat is offered (version 1's
  message), ``folded_turn``, ``folded_extra`` and ``snapshot_frame``: version 2's,
  folded into the frame it follows;
- ``appended``: an encoded frame with a few keys added, without encoding it again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

import msgpack

import engine

from . import models as m

__all__ = [
    "HIDDEN",
    "appended",
    "event_frame",
    "events_frame",
    "folded_extra",
    "folded_turn",
    "legal_json",
    "snapshot_frame",
    "wire_event",
    "your_turn_json",
]

HIDDEN: dict[str, Any] = {"kind": "hidden"}  # an event this reader may not see


def event_frame(table_id: str, seq: int, body: dict[str, Any]) -> dict[str, Any]:
    """Version 1's ``event`` message: one event, or ``HIDDEN``."""
    return {"type": "event", "table_id": table_id, "seq": seq, "event": body}


def events_frame(table_id: str, events: Iterable[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    """Version 2's ``events`` message: each event's number and body (or ``HIDDEN``)."""
    return {
        "type": "events",
        "table_id": table_id,
        "events": [{"seq": seq, "event": body} for seq, body in events],
    }


def folded_turn(seq: int, legal: engine.Legal, deadline_ms: int | None) -> dict[str, Any]:
    """Version 2's ``your_turn`` folded into the frame it follows (``events``, ``snapshot``)."""
    return {"seq": seq, "legal": legal_json(legal), "deadline_ms": deadline_ms}


def folded_extra(turn: dict[str, Any] | None, re: m.RequestId | None) -> dict[str, Any]:
    """What one reader's ``events`` frame has beside the shared events (``appended``):
    its ``your_turn`` (``folded_turn``), the ``re`` of the request it made."""
    extra: dict[str, Any] = {}
    if turn is not None:
        extra["your_turn"] = turn
    if re is not None:
        extra["re"] = re
    return extra


def snapshot_frame(snapshot: m.Snapshot, turn: dict[str, Any] | None) -> dict[str, Any]:
    """A ``snapshot`` message, with version 2's folded ``your_turn`` if any."""
    body: dict[str, Any] = snapshot.model_dump(mode="json")
    if turn is not None:
        body["your_turn"] = turn
    return body


def legal_json(legal: engine.Legal) -> dict[str, Any] | None:
    """``m.LegalChoices``'s JSON values, built without the model (and its checks of
    values the engine made): one goes with every turn (``your_turn_json``)."""
    if legal.seat == engine.NO_SEAT:
        return None
    discard = None
    if legal.discard is not None:
        rule = legal.discard
        discard = {
            "count": rule.count,
            "allowed": _codes(sorted(rule.allowed)),
            "required": _codes(sorted(rule.required)),
        }
    return {
        "seat": legal.seat,
        "phase": legal.phase.value,
        "bids": [c.code for c in legal.bids],
        "discard": discard,
        "chelem": any(isinstance(a, engine.DeclareChelem) for a in legal.actions),
        "poignees": [
            {"level": o.level.code, "size": o.level.value, "cards": _codes(sorted(o.cards))}
            for o in legal.poignees
        ],
        "cards": _codes(legal.cards),
    }


def your_turn_json(
    table_id: str, seq: int, legal: engine.Legal, deadline_ms: int | None
) -> dict[str, Any]:
    """``m.YourTurn(...).model_dump(mode="json")``, for the server's hottest reply."""
    return {
        "type": "your_turn",
        "table_id": table_id,
        "seq": seq,
        "legal": legal_json(legal),
        "deadline_ms": deadline_ms,
    }


def appended(frame: str | bytes, extra: dict[str, Any]) -> str | bytes:
    """``frame`` (an encoded map of at most 15 keys) with ``extra``'s keys added last:
    the bytes ``Codec.dumps`` gives the whole map, without encoding the rest again."""
    if isinstance(frame, str):  # JSON, as ``Codec.dumps`` writes it: ``{...}``
        return f"{frame[:-1]},{json.dumps(extra, separators=(',', ':'))[1:]}"
    # msgpack: a fixmap's first byte is 0x80 plus its number of pairs; the pairs follow
    pairs: bytes = msgpack.packb(extra, use_bin_type=True)[1:]
    return bytes([frame[0] + len(extra)]) + frame[1:] + pairs


def _codes(cards: Iterable[int]) -> list[str]:
    return [engine.CODES[c] for c in cards]


# ---------------------------------------------------------------- stored events


def wire_event(stored: dict[str, Any]) -> dict[str, Any]:
    """The wire body (``m.EventModel``'s JSON, keys in the model's order) of a stored
    event body. A form 0 body is a wire body already: it is sent as it was stored."""
    if stored.get("v") != 1:
        if "kind" in stored:
            return stored
        raise ValueError(f"not a stored event: {stored!r}")
    write = _WIRE_EVENTS.get(stored["e"])
    if write is None:
        raise ValueError(f"not a stored event: {stored!r}")
    return write(stored)


def _seat(e: dict[str, Any]) -> dict[str, Any]:
    info = {"seat": e["seat"], "occupant": e["occupant"], "name": e["name"]}
    info["connected"] = e["connected"]
    if e["away_until_ms"] is not None:  # ``SeatInfo`` drops its nulls
        info["away_until_ms"] = e["away_until_ms"]
    return {"kind": "seat", "seat": info}


def _sheet(sheet: dict[str, Any]) -> dict[str, Any]:
    # Once a deal: the model puts the engine's sheet in the wire's order, nulls dropped.
    body: dict[str, Any] = m.ScoreSheet.model_validate(sheet).model_dump(mode="json")
    return body


def _ratings(e: dict[str, Any]) -> dict[str, Any]:
    changes = [
        {"seat": seat, "name": name, "before": before, "after": after}
        for seat, name, before, after in e["changes"]
    ]
    return {"kind": "ratings", "deal_number": e["number"], "changes": changes}


_WIRE_EVENTS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    # a deal's events, in engine terms
    "hand_dealt": lambda e: {"kind": "hand", "seat": e["seat"], "cards": e["cards"]},
    "bid_made": lambda e: {"kind": "bid", "seat": e["seat"], "contract": e["contract"]},
    "taker_known": lambda e: {"kind": "taker", "seat": e["taker"], "contract": e["contract"]},
    "chien_revealed": lambda e: {"kind": "chien", "cards": e["cards"]},
    "discard_made": lambda e: {"kind": "discard", "seat": e["seat"], "trumps": e["trumps"]},
    "discard_kept": lambda e: {
        "kind": "discard_kept",
        "seat": e["seat"],
        "cards": e["cards"],
        "points": e["points"],
    },
    "chelem_declared": lambda e: {
        "kind": "chelem",
        "seat": e["seat"],
        "announced": e["announced"],
    },
    "poignee_shown": lambda e: {
        "kind": "poignee",
        "seat": e["seat"],
        "level": e["level"],
        "cards": e["cards"],
    },
    "card_played": lambda e: {"kind": "card", "seat": e["seat"], "card": e["card"]},
    "trick_taken": lambda e: {
        "kind": "trick",
        "number": e["number"],
        "leader": e["leader"],
        "cards": e["cards"],
        "winner": e["winner"],
        "points": e["points"],
        "taker_bouts": e["taker_bouts"],
        "target": e["target"],
    },
    "deal_cancelled": lambda e: {"kind": "cancelled", "reason": e["reason"]},
    # the table's
    "deal_started": lambda e: {
        "kind": "deal_started",
        "deal_number": e["number"],
        "dealer": e["dealer"],
    },
    "turn": lambda e: {
        "kind": "turn",
        "seat": e["seat"],
        "phase": e["phase"],
        "deadline_ms": e["deadline_ms"],
    },
    "deal_scored": lambda e: {
        "kind": "score",
        "deal_number": e["number"],
        "sheet": _sheet(e["sheet"]),
        "totals": e["totals"],
    },
    "record": lambda e: {"kind": "record", "deal_number": e["number"], "record": e["record"]},
    "between_deals": lambda e: {
        "kind": "between_deals",
        "next_deal_number": e["next_number"],
        "deadline_ms": e["deadline_ms"],
        "waiting_for": e["waiting"],
    },
    "table_over": lambda e: {"kind": "table_over", "totals": e["totals"]},
    "seat": _seat,
    "chat": lambda e: {
        "kind": "chat",
        "seat": e["seat"],
        "name": e["name"],
        "account_id": e["account_id"],
        "preset": e["preset"],
        "text": e["text"],
        "spectators_only": e["spectators_only"],
    },
    "rematch": lambda e: {
        "kind": "rematch",
        "table_id": e["table_id"],
        "accepted": e["accepted"],
        "declined": e["declined"],
        "started": e["started"],
        "timed_out": e["timed_out"],
        "deadline_ms": e.get("deadline_ms"),  # stored before offers told their deadline: None
    },
    "ratings": _ratings,
}
