"""Who sits where: one join request, seated in one place.

A ``join`` names a table and, maybe, a seat, a name, an idempotency ``key`` and
the account signed in on its connection. ``join`` seats it in this order:

1. by its key: a join sent again with the same key (its answer was lost) finds
   the seat its first try took (``request_keys.token_of_key``: the token only
   its sender can know) and takes it back, as a ``resume`` would;
2. by its account: a signed-in player who holds a seat here takes it back, on
   any connection, with a new token (``reclaim``);
3. in a free seat (an empty one, or the AI's between deals).

Taking a seat back always opens a new session of the seat: a seat is followed
by one connection at a time, so any older connection of it, on any node, is
told it was replaced (``bye`` ``replaced``). Pure table transitions like
``transitions``: they decide, the connection does the I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

import engine
from protocol.skeletons import name_skeleton

from . import transitions as tr
from .data import TableData, hash_token, new_token
from .duplicate_deals import check_free_seat, with_entry
from .refusals import TableRefused
from .request_keys import token_of_key


@dataclass(frozen=True, slots=True)
class JoinRequest:
    """A ``join`` as the table sees it: who asks, through which node, when."""

    name: str = ""
    now_ms: int = 0
    seat: int | None = None
    node: str = ""
    account_id: int | None = None  # the account signed in on the connection
    key: str | None = None  # the client's idempotency key (PROTOCOL.md, "Retries")
    entry: int | None = None  # a duplicate event's entry, seated by ``duplicate_play``
    # The fourth seat taken does not start the table: the request has more to confirm
    # first (``start_if_full`` then), and a seat given back must find the table waiting.
    hold_start: bool = False


def join(data: TableData, state: engine.Deal | None, request: JoinRequest) -> tr.Change:
    """Seat ``request``: by its key, then by its account, then in a free seat."""
    if request.key is not None and request.account_id is None:
        token = token_of_key(data.table_id, request.key)
        taken = _seat_of(data, token)
        if taken is not None:
            if request.seat is not None and request.seat != taken:
                raise TableRefused(
                    "bad_key", f"this key took seat {taken}, not seat {request.seat}"
                )
            change = tr.present(data, state, taken, request.node)
            change.seated = (taken, token)
            return change
        return _take_free_seat(data, state, request, token)
    if request.account_id is not None and data.status != "finished":
        if seat_of_account(data, request.account_id) is not None:
            return reclaim(data, state, request.account_id, request.node)
    return _take_free_seat(data, state, request, None)


def _seat_of(data: TableData, token: str) -> int | None:
    try:
        return tr.seat_of_token(data, token)
    except TableRefused:
        return None


def _take_free_seat(
    data: TableData, state: engine.Deal | None, request: JoinRequest, token: str | None
) -> tr.Change:
    """An empty seat, or one the AI holds between deals; the token is new, or ``token``.

    Mid-deal a seat's cards belong to whoever held it when the deal began: the
    AI plays a seat its player left until the deal ends, and only the seat's
    token (``present``) takes it back. A newcomer watches, and sits down after.
    """
    free = [i for i, s in enumerate(data.seats) if s.occupant != "human"]
    seat = request.seat
    if data.status == "finished":
        raise TableRefused("table_full", f"table {data.table_id} is finished")
    check_free_seat(data, request.entry)
    if tr.is_mid_deal(data, state) and (seat in free if seat is not None else bool(free)):
        raise TableRefused(
            "deal_in_progress",
            f"table {data.table_id} is in the middle of a deal: watch it, and take a seat"
            " when the deal is over",
        )
    if seat is None:
        if not free:
            raise TableRefused("table_full", f"table {data.table_id} has no free seat")
        seat = free[0]
    elif seat not in free:
        raise TableRefused("table_full", f"seat {seat} of table {data.table_id} is taken")
    if request.name:
        _check_name_free(data, seat, request.name)
    token, token_hash = (token, hash_token(token)) if token else new_token(data.table_id)
    seats = data.with_seat(
        seat,
        occupant="human",
        name=request.name or f"Player {seat + 1}",
        token_hash=token_hash,
        dropped_at_ms=None,
        session=data.seats[seat].session + 1,
        node=request.node,
        account_id=request.account_id,
    )
    seated = with_entry(data, seat, request.entry).model_copy(update={"seats": seats})
    change = tr.Change(seated, state, seated=(seat, token))
    tr.seat_changed(change, seat)
    if data.status == "waiting" and all(s.occupant == "human" for s in seats):
        if not request.hold_start:
            tr.start_series(change, request.now_ms)
    return change


def start_if_full(data: TableData, state: engine.Deal | None, now_ms: int) -> tr.Change:
    """Start a waiting table every seat of which a human holds (the start a ``hold_start``
    join left for later); any other table as it is."""
    change = tr.Change(data, state)
    if data.status == "waiting" and all(s.occupant == "human" for s in data.seats):
        tr.start_series(change, now_ms)
    return change


def _check_name_free(data: TableData, seat: int, name: str) -> None:
    """Two seats of a table never show one name, nor two names that look alike (UTS #39
    skeletons: "Mаrie" with a Cyrillic a is "Marie"): who played what must be plain."""
    wanted = name_skeleton(name)
    for i, other in enumerate(data.seats):
        if i != seat and other.occupant != "empty" and name_skeleton(other.name) == wanted:
            raise TableRefused(
                "bad_name",
                f"seat {i} of table {data.table_id} is {other.name!r}: choose another name",
            )


# ------------------------------------------------------------ seats held by accounts


def seat_of_account(data: TableData, account_id: int) -> int | None:
    """The seat ``account_id`` holds at the table, if any (an account holds at most one)."""
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
    one no longer resumes it) and a new session (older connections are replaced).

    A seat taken signed in keeps the account's id (``SeatData.account_id``) until the
    player leaves; its finished deals are stored with the account, and so rated.
    """
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


def give_back(
    data: TableData, state: engine.Deal | None, seat: int, session: int, now_ms: int
) -> tr.Change:
    """Give back a seat a request took (session ``session``) when the rest of the request
    was refused after all (a rematch's old table, a duplicate entrant's other table). Such
    a request holds the start back (``hold_start``), but a player there may have started
    the table meanwhile: the seat goes all the same (the AI's then), and at a duplicate
    table its entry with it, so the AI plays it for nobody; nor is the player rated as
    one who left a deal (it was refused, it never played). A seat resumed since (a newer
    session) or a finished table is left as it is."""
    was = data.seats[seat]
    if data.status == "finished" or was.session != session or was.occupant != "human":
        return tr.Change(data, state)
    change = tr.leave(with_entry(data, seat, None), state, seat, now_ms, session)
    kept = {"left_account_id": was.left_account_id, "left_deal": was.left_deal}
    change.data = change.data.model_copy(update={"seats": change.data.with_seat(seat, **kept)})
    return change
