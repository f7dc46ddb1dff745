"""A seat a request took and gives back when the rest of it is refused (a duplicate
entrant's second table, a rematch accept the old table refused): ``seating.give_back``.

The join that fills a table's fourth seat started it at once, in the same change, and a
started table kept the seat: the refused player held a seat no connection followed, and
at a duplicate table played its entry there too. A request that may still be refused
holds the start back (``hold_start``, then ``start_if_full``); if a player there started
the table meanwhile, the seat goes all the same, the AI's, playing for nobody."""

from __future__ import annotations

from protocol import models as m
from server.table import transitions as tr
from server.table.data import DuplicateDeal, DuplicateTable, TableData
from server.table.seating import JoinRequest, give_back, join, start_if_full

NOW = 1_000_000
DEAL = DuplicateDeal(index=0, dealer=0, seed="00" * 32)


def three_seated(duplicate: bool) -> TableData:
    planned = DuplicateTable(event_id=1, kind="tables", deals=[DEAL], closes_ms=NOW * 10)
    data = TableData(
        table_id="t", options=m.TableOptions(deals=1), duplicate=planned if duplicate else None
    )
    for i, name in enumerate(("Bob", "Carl", "Dan")):
        entry = 10 + i if duplicate else None
        request = JoinRequest(name=name, now_ms=NOW, account_id=i + 1, entry=entry)
        data = join(data, None, request).data
    return data


def ann(duplicate: bool, hold_start: bool) -> JoinRequest:
    entry = 4 if duplicate else None
    return JoinRequest(name="Ann", now_ms=NOW, account_id=4, entry=entry, hold_start=hold_start)


def test_a_fourth_seat_held_back_starts_nothing_until_confirmed() -> None:
    change = join(three_seated(True), None, ann(True, hold_start=True))
    assert change.data.status == "waiting"
    started = start_if_full(change.data, change.state, NOW + 1)
    assert started.data.status == "playing" and started.state is not None
    assert join(three_seated(True), None, ann(True, hold_start=False)).data.status == "playing"


def test_a_seat_given_back_leaves_a_table_waiting_as_it_was() -> None:
    before = three_seated(True)
    change = join(before, None, ann(True, hold_start=True))
    back = give_back(change.data, change.state, 3, change.data.seats[3].session, NOW + 1)
    assert back.data.status == "waiting"
    assert back.data.seats[3].occupant == "empty"
    assert back.data.duplicate == before.duplicate  # Ann's entry planned nowhere here
    assert start_if_full(back.data, back.state, NOW + 2).data.status == "waiting"


def test_a_seat_given_back_after_a_player_started_the_table_plays_for_nobody() -> None:
    change = join(three_seated(True), None, ann(True, hold_start=True))
    started = tr.start(change.data, change.state, NOW + 1)  # Bob's start, meanwhile
    back = give_back(started.data, started.state, 3, change.data.seats[3].session, NOW + 2)
    seat = back.data.seats[3]
    assert (seat.occupant, seat.account_id, seat.left_account_id) == ("ai", None, None)
    assert back.data.duplicate is not None and back.data.duplicate.entries[3] is None


def test_a_seat_resumed_since_is_not_given_back() -> None:
    change = join(three_seated(False), None, ann(False, hold_start=True))
    session = change.data.seats[3].session
    resumed = tr.present(change.data, change.state, 3, "node")
    again = resumed.data.model_copy(
        update={"seats": resumed.data.with_seat(3, session=session + 1)}
    )
    back = give_back(again, resumed.state, 3, session, NOW + 1)
    assert back.data.seats[3].occupant == "human"
