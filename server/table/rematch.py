"""Rematch without I/O: the same humans at a new table, once a table is over.

At a finished table each human seat answers ``rematch`` (accept or decline).
The first answer names the new table (the connection makes it, with a key
derived from the old table's id, ``rematch_key``: whichever node asks first,
there is one new table); the answers are kept in the old table's data
(``TableData.rematch``) and told to everyone there by a ``rematch`` event. A
seat that accepts takes the same seat at the new table; once every human seat
has answered, the new table starts and the AI takes the seats of whoever
declined (``start``). Until then, any player seated there may ``start`` it.

An accept is final (the seat sits at the new table: ``leave`` is how to quit
it); a decline may still become an accept while a human seat has not answered.
Once every human seat has answered, or the offer timed out, it is closed: any
answer is refused (``rematch_closed``) and changes nothing. The new table may
also have started under a player's ``start``, which the old table cannot see:
an accept takes its seat there first (``seat_at_new_table``, refused once that
table started) and is written to the old table only after, so the old table
never says a seat accepted that is not at the new table.

The offer does not wait for ever: the first answer sets its deadline
(``rematch_seconds`` after it, a server setting). When it passes with a human
seat still silent, the offer closes (``expire``): the silent seats are named
in the ``rematch`` event (``timed_out``), a late answer is refused, and the
new table starts if anyone accepted, the AI in every seat not taken. Any
node following the old table may close it (server/node/rematch_timers.py):
the check-and-set commit makes it happen once.
"""

from __future__ import annotations

import hashlib

import engine

from . import transitions as tr
from .data import RematchData, TableData
from .refusals import TableRefused
from .seating import JoinRequest, join
from .stored_events import StoredBody, table_event


def rematch_key(table_id: str) -> str:
    """The ``create_table`` key of the rematch of ``table_id`` (request_keys: one table)."""
    return "rematch-" + hashlib.sha256(f"tarot-rematch\0{table_id}".encode()).hexdigest()[:40]


def check_finished(data: TableData, seat: int) -> None:
    if data.status != "finished":
        raise TableRefused("not_finished", f"table {data.table_id} is not over: no rematch yet")
    if data.seats[seat].occupant != "human":
        raise TableRefused("not_seated", "only the table's human players answer its rematch")


def humans(data: TableData) -> list[int]:
    return [i for i, s in enumerate(data.seats) if s.occupant == "human"]


def check_answer(data: TableData, seat: int) -> None:
    """May seat ``seat`` answer now: the table is over, the offer open, its answer not an
    accept already."""
    check_finished(data, seat)
    offer = data.rematch
    if offer is None:
        return
    if offer.timed_out:
        raise TableRefused("rematch_closed", "the rematch offer closed: nobody waits any more")
    if is_complete(data):
        raise TableRefused(
            "rematch_closed",
            f"the rematch offer closed: every player answered (the new table is {offer.table_id})",
        )
    if offer.answers[seat] is True:
        raise TableRefused(
            "rematch_closed",
            f"seat {seat} accepted the rematch already: its seat is at table {offer.table_id}",
        )


def is_complete(data: TableData) -> bool:
    """Every human seat answered the offer."""
    offer = data.rematch
    return offer is not None and all(offer.answers[i] is not None for i in humans(data))


def answer(
    data: TableData,
    state: engine.Deal | None,
    seat: int,
    accept: bool,
    new_table_id: str,
    deadline_ms: int | None = None,
) -> tr.Change:
    """Seat ``seat`` answers the rematch; the first answer names ``new_table_id`` and
    when the offer closes (``deadline_ms``). A decline said again changes nothing."""
    check_answer(data, seat)
    offer = data.rematch or RematchData(table_id=new_table_id, deadline_ms=deadline_ms)
    if offer.answers[seat] is accept:
        return tr.Change(data, state)
    answers = list(offer.answers)
    answers[seat] = accept
    offer = offer.model_copy(update={"answers": answers})
    change = tr.Change(data.model_copy(update={"rematch": offer}), state)
    change.emit(event_of(change.data))
    return change


def event_of(data: TableData) -> StoredBody:
    offer = data.rematch
    assert offer is not None
    seats = range(len(offer.answers))
    return table_event(
        "rematch",
        table_id=offer.table_id,
        accepted=[i for i in seats if offer.answers[i] is True],
        declined=[i for i in seats if offer.answers[i] is False],
        started=starts(data),
        timed_out=list(offer.timed_out),
        deadline_ms=deadline(data),  # so a client can count down; None once it closed
    )


def starts(data: TableData) -> bool:
    """Every human seat answered (or the offer timed out) and one at least accepted: the
    new table starts."""
    offer = data.rematch
    if offer is None:
        return False
    return (is_complete(data) or bool(offer.timed_out)) and any(a is True for a in offer.answers)


def deadline(data: TableData) -> int | None:
    """When the open offer closes; None when none is open (not made, answered by every
    human seat, closed already, or stored before offers had a deadline)."""
    offer = data.rematch
    if offer is None or offer.deadline_ms is None or offer.timed_out or is_complete(data):
        return None
    return offer.deadline_ms


def expire(data: TableData, state: engine.Deal | None, now_ms: int) -> tr.Change:
    """Close the offer if its deadline passed: the seats that did not answer are told
    (``timed_out``); nothing changes before the deadline or once it is closed."""
    due = deadline(data)
    change = tr.Change(data, state)
    if due is None or now_ms < due:
        return change
    offer = data.rematch
    assert offer is not None  # deadline() said it is open
    silent = [i for i in humans(data) if offer.answers[i] is None]
    offer = offer.model_copy(update={"timed_out": silent})
    change.data = data.model_copy(update={"rematch": offer})
    change.emit(event_of(change.data))
    return change


def seat_at_new_table(
    data: TableData, state: engine.Deal | None, request: JoinRequest
) -> tr.Change:
    """An accepting seat takes its seat at the rematch's table ``data``, which must wait
    still: once a player there started it, the AI holds the seats not taken."""
    if data.status != "waiting":
        raise TableRefused(
            "rematch_closed",
            f"the rematch's table {data.table_id} started without seat {request.seat}",
        )
    return join(data, state, request)
