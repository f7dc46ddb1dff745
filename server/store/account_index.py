"""The account index: for each account, the tables where it may hold a seat.

Theory of operation. A player who signs in is told the seats their account
holds at tables not finished, on any node (``seating.held_seats``). Reading
every table for it cost O(all tables) per sign-in: at 10,000 tables the read
passed the store's time-out and the sign-in was refused. So a store keeps,
for each account, the ids of the tables it was seated at, added *before* the
write that seats it (a write that then fails leaves an extra id, never a
missing one), and checked on read: a table gone, finished, or whose seat the
account left is dropped from the index then. Nothing else removes an id.
"""

from __future__ import annotations

from server.table.data import TableData
from server.table.seating import seat_of_account


def seated_accounts(table: TableData | None) -> set[int]:
    """The accounts seated at ``table`` (humans signed in when they sat)."""
    if table is None:
        return set()
    return {s.account_id for s in table.seats if s.occupant == "human" and s.account_id}


def accounts_new(base: TableData | None, table: TableData) -> list[int]:
    """The accounts seated at ``table`` that were not at ``base`` (the stored version, if
    known): those the index must hold before ``table`` is written."""
    if base is not None and base.seats is table.seats:
        return []  # most commits (a card, a bid) copy the table and keep its seats' list
    return sorted(seated_accounts(table) - seated_accounts(base))


def still_held(table: TableData | None, account_id: int) -> bool:
    """Whether ``table`` (None: gone) is one the index keeps for ``account_id``."""
    return (
        table is not None
        and table.status != "finished"
        and seat_of_account(table, account_id) is not None
    )
