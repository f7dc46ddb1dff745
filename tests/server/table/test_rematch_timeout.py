"""A rematch offer closes on time, without I/O (server/table/rematch.py): the first
answer sets the deadline; once it passes, the seats that did not answer are named,
the new table starts if anyone accepted, and a late answer is refused."""

from __future__ import annotations

import pytest

from protocol import models as m
from protocol.frames import wire_event
from server.table import rematch
from server.table.data import TableData
from server.table.refusals import TableRefused
from server.table.seating import JoinRequest, join

from .wired import wired

NOW = 1_000_000
CLOSES = NOW + 30_000


def over(*names: str) -> TableData:
    data = TableData(table_id="old", options=m.TableOptions(deals=1))
    for seat, name in enumerate(names):
        data = join(data, None, JoinRequest(name=name, now_ms=NOW, seat=seat)).data
    return data.model_copy(update={"status": "finished"})


def test_the_first_answer_sets_the_deadline_and_later_ones_keep_it() -> None:
    first = rematch.answer(over("Anna", "Bob", "Carl"), None, 0, True, "new", CLOSES).data
    assert rematch.deadline(first) == CLOSES
    second = rematch.answer(first, None, 1, True, "new", CLOSES + 5_000).data
    assert rematch.deadline(second) == CLOSES


def test_the_rematch_event_tells_when_the_open_offer_closes_and_null_once_closed() -> None:
    # A client counts the offer down from the event (the browser's rematch panel): the
    # event of each answer names the deadline while the offer is open, null once closed.
    first = rematch.answer(over("Anna", "Bob", "Carl"), None, 0, True, "new", CLOSES)
    [(_, opened)] = first.events
    assert wired(opened) == m.RematchEvent(
        table_id="new", accepted=[0], declined=[], deadline_ms=CLOSES
    )
    second = rematch.answer(first.data, None, 1, False, "new", CLOSES + 5_000)
    assert wired(second.events[0][1]).deadline_ms == CLOSES  # type: ignore[union-attr]
    last = rematch.answer(second.data, None, 2, True, "new", CLOSES)  # every human answered
    assert wired(last.events[0][1]).deadline_ms is None  # type: ignore[union-attr]
    silent = rematch.answer(over("Anna", "Bob"), None, 0, True, "new", CLOSES).data
    [(_, closed)] = rematch.expire(silent, None, CLOSES).events
    assert wired(closed).deadline_ms is None  # type: ignore[union-attr]


def test_nothing_closes_before_the_deadline() -> None:
    offered = rematch.answer(over("Anna", "Bob"), None, 0, True, "new", CLOSES).data
    early = rematch.expire(offered, None, CLOSES - 1)
    assert early.data is offered and not early.events


def test_at_the_deadline_the_silent_seats_are_told_and_the_new_table_starts() -> None:
    data = rematch.answer(over("Anna", "Bob", "Carl", "Dan"), None, 0, True, "new", CLOSES).data
    data = rematch.answer(data, None, 2, False, "new", CLOSES).data
    assert not rematch.starts(data)
    closed = rematch.expire(data, None, CLOSES)
    assert rematch.starts(closed.data)
    assert rematch.deadline(closed.data) is None
    [(audience, event)] = [(a, wired(e)) for a, e in closed.events]
    assert audience is None  # the whole table: the silent seats are told
    assert event == m.RematchEvent(
        table_id="new", accepted=[0], declined=[2], started=True, timed_out=[1, 3]
    )
    again = rematch.expire(closed.data, None, CLOSES + 60_000)
    assert again.data is closed.data and not again.events  # once


def test_a_late_answer_is_refused() -> None:
    data = rematch.answer(over("Anna", "Bob"), None, 0, True, "new", CLOSES).data
    closed = rematch.expire(data, None, CLOSES).data
    with pytest.raises(TableRefused) as refused:
        rematch.answer(closed, None, 1, True, "new", CLOSES)
    assert refused.value.code == "rematch_closed"


def test_an_offer_nobody_accepted_closes_without_a_new_table() -> None:
    data = rematch.answer(over("Anna", "Bob"), None, 0, False, "new", CLOSES).data
    closed = rematch.expire(data, None, CLOSES)
    assert closed.events and not rematch.starts(closed.data)
    assert wire_event(rematch.event_of(closed.data))["timed_out"] == [1]


def test_an_offer_every_human_answered_has_no_deadline() -> None:
    data = rematch.answer(over("Anna", "Bob"), None, 0, True, "new", CLOSES).data
    data = rematch.answer(data, None, 1, False, "new", CLOSES).data
    assert rematch.deadline(data) is None
    assert not rematch.expire(data, None, CLOSES + 1).events


def test_an_offer_stored_before_deadlines_never_closes() -> None:
    data = rematch.answer(over("Anna", "Bob"), None, 0, True, "new").data
    assert rematch.deadline(data) is None
    assert not rematch.expire(data, None, CLOSES * 10).events


def test_once_every_human_answered_the_offer_is_closed_to_every_answer() -> None:
    data = rematch.answer(over("Anna", "Bob"), None, 0, True, "new", CLOSES).data
    data = rematch.answer(data, None, 1, False, "new", CLOSES).data
    for seat, accept in ((1, True), (1, False), (0, False)):
        with pytest.raises(TableRefused) as refused:
            rematch.answer(data, None, seat, accept, "new", CLOSES)
        assert refused.value.code == "rematch_closed"


def test_an_accept_is_final_and_a_decline_may_become_an_accept_while_open() -> None:
    data = rematch.answer(over("Anna", "Bob", "Carl"), None, 0, True, "new", CLOSES).data
    with pytest.raises(TableRefused) as refused:
        rematch.answer(data, None, 0, False, "new", CLOSES)
    assert refused.value.code == "rematch_closed"
    declined = rematch.answer(data, None, 1, False, "new", CLOSES).data
    again = rematch.answer(declined, None, 1, False, "new", CLOSES)
    assert again.data is declined and not again.events  # said again: nothing to tell
    changed = rematch.answer(declined, None, 1, True, "new", CLOSES)
    assert wired(changed.events[0][1]) == m.RematchEvent(
        table_id="new", accepted=[0, 1], declined=[], started=False, deadline_ms=CLOSES
    )
