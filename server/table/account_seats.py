"""Seats held by accounts: a signed-in player takes a seat with the account, and takes it
back from any connection (a reload, another device) without the seat's token.

Pure table transitions like ``transitions``: they decide, the connection does the I/O.
A seat taken signed in keeps the account's id (``SeatData.account_id``) until the
player leaves; its finished deals are stored with the account, and so rated
(docs/RATINGS.md). An account holds at most one seat of a table: its ``join`` of a
table where it sits already is a ``resume`` of that seat.
"""

from __future__ import annotations

import engine

from . import transitions as tr
from .data import TableData, new_token
from .refusals import TableRefused


def seat_of_account(data: TableData, account_id: int) -> int | None:
    """The seat ``account_id`` holds at the table, if any."""
    for i, s in enumerate(data.seats):
        if s.occupant == "human" and s.account_id == account_id:
            return i
    return None


def held_seats(tables: list[TableData], account_id: int) -> list[tuple[str, int]]:
    """(table id, seat) of every table not finished where ``account_id`` holds a seat."""
    held = []
    for data in tables:
        seat = seat_of_account(data, account_id)
        if seat is not None and data.status != "finished":
            held.append((data.table_id, seat))
    return held


def reclaim(data: TableData, state: engine.Deal | None, account_id: int, node: str) -> tr.Change:
    """The account's seat, back on a new connection through ``node``: a new token (the old
    one no longer resumes it) and a new session (older connections are replaced)."""
    seat = seat_of_account(data, account_id)
    if seat is None or data.status == "finished":
        raise TableRefused(
            "no_account_seat", f"your account holds no seat at table {data.table_id}"
        )
    change = tr.present(data, state, seat, node)
    token, token_hash = new_token(data.table_id)
    change.data = change.data.model_copy(
        update={"seats": change.data.with_seat(seat, token_hash=token_hash)}
    )
    change.seated = (seat, token)
    return change


def join(
    data: TableData,
    state: engine.Deal | None,
    seat: int | None,
    name: str,
    now_ms: int,
    node: str,
    account_id: int | None,
) -> tr.Change:
    """``tr.join``, with the account's seat taken back when it holds one here."""
    if account_id is not None and seat_of_account(data, account_id) is not None:
        if data.status != "finished":
            return reclaim(data, state, account_id, node)
    return tr.join(data, state, seat, name, now_ms, node, account_id)
