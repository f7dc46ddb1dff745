"""What a table's event log holds: each event in a storage form the server owns.

The log outlives a protocol version (a table plays on across an upgrade, a
resume replays it), so it holds no wire bodies: a deal's events are the
engine's (``engine/events.py``) written as plain values, card codes, seats and
contract codes as in docs/RECORD.md; the table's own events (seats, turns,
scores, chat, ...) a few plain fields each. The protocol makes the wire body
of each when it is sent (``protocol.frames.wire_event``), once per commit for
every reader. Every body is a dict of JSON values, marked with its form:

- form 1 (this module): ``{"v": 1, "e": NAME, ...fields}``, NAME and fields
  as the builders below write them (docs/PROTOCOL.md, "Stored events");
- form 0: the wire body itself (``{"kind": ...}``), as servers wrote it before
  form 1 (issue 26); a table stored then is read back and delivered as it is.

The names of the events the server looks into (``turn``, ``chat``,
``rematch``, ``ratings``) are their wire kinds too, so ``name_of`` reads
either form.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import engine
from protocol.convert import codes, number, numbers

__all__ = ["FORM", "StoredBody", "deal_event", "name_of", "table_event"]

FORM = 1
StoredBody = dict[str, Any]


def name_of(event: StoredBody) -> str:
    """The storage name of a form 1 body, the wire kind of a form 0 one."""
    name = event.get("e")
    return str(event.get("kind") if name is None else name)


def table_event(event: str, /, **fields: Any) -> StoredBody:
    """A table event (``turn``, ``seat``, ``deal_started``, ...): its plain fields."""
    return {"v": FORM, "e": event, **fields}


def deal_event(event: engine.DealEvent) -> StoredBody:
    """The stored form of an engine event (not ``DealStarted`` and ``DealScored``: the
    table writes those with what only it knows, the deal's number and the totals)."""
    write: Callable[[Any], StoredBody] = _DEAL_EVENTS[type(event)]
    return write(event)


def _trick(e: engine.TrickTaken) -> StoredBody:
    trick = e.trick
    return {
        "v": FORM,
        "e": "trick_taken",
        "number": e.number,
        "leader": trick.leader,
        "cards": codes(trick.cards),
        "winner": trick.winner,
        "points": numbers(e.points),
        "taker_bouts": e.taker_bouts,
        "target": e.target,
    }


def _cards(name: str, e: Any, cards: Sequence[int]) -> StoredBody:
    return {"v": FORM, "e": name, "seat": e.seat, "cards": codes(cards)}


_DEAL_EVENTS: dict[type, Callable[[Any], StoredBody]] = {
    engine.HandDealt: lambda e: _cards("hand_dealt", e, e.cards),
    engine.BidMade: lambda e: {
        "v": FORM,
        "e": "bid_made",
        "seat": e.seat,
        "contract": e.contract.code,
    },
    engine.TakerKnown: lambda e: {
        "v": FORM,
        "e": "taker_known",
        "taker": e.taker,
        "contract": e.contract.code,
    },
    engine.ChienRevealed: lambda e: {"v": FORM, "e": "chien_revealed", "cards": codes(e.cards)},
    engine.DiscardMade: lambda e: {
        "v": FORM,
        "e": "discard_made",
        "seat": e.seat,
        "trumps": codes(e.trumps),
    },
    engine.DiscardKept: lambda e: {
        **_cards("discard_kept", e, e.cards),
        "points": number(e.points),
    },
    engine.ChelemDeclared: lambda e: {
        "v": FORM,
        "e": "chelem_declared",
        "seat": e.seat,
        "announced": e.announced,
    },
    engine.PoigneeShown: lambda e: {
        **_cards("poignee_shown", e, e.cards),
        "level": e.level.code,
    },
    engine.CardPlayed: lambda e: {
        "v": FORM,
        "e": "card_played",
        "seat": e.seat,
        "card": engine.CODES[e.card],
    },
    engine.TrickTaken: _trick,
    engine.DealCancelled: lambda e: {"v": FORM, "e": "deal_cancelled", "reason": e.reason},
}
