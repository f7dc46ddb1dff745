"""The lobby index: the lists of tables a store keeps for the lobby, and a table's line.

Theory of operation. The lobby shows one page of the open tables, oldest first,
maybe only those with a seat free or whose AI plays at one level; the server
limits the tables not finished; the sweep closes the waiting tables nobody sat
at; the lease sweep adopts the tables in play. Reading every table for each of
these cost O(all tables) per node per second. So a store keeps, beside each
table, the lists it is in (``lists_of``), each ordered by creation (a table's
``member``: its creation time, zero-padded, then its id, so that byte order is
the lobby's order), and the table's summary as the lobby shows it: a page is
then read in O(page size). A store updates them with each commit that changes
the summary (``summary_key``); every list follows from the summary's fields.
"""

from __future__ import annotations

from typing import get_args

from protocol import models as m
from server.table.data import TableData
from server.table.refusals import TableRefused

OPEN = "open"  # listed: public and not finished
SEATS = "seats"  # listed, with a seat a newcomer may take now
LIVE = "live"  # not finished, private ones too (the server-wide limit counts them)
IDLE = "idle"  # waiting with nobody seated (the sweep closes them in time)
PLAYING = "playing"  # in play (the lease sweep adopts those nobody drives)
LEVELS: tuple[str, ...] = get_args(m.AiLevel)
LISTS: tuple[str, ...] = (
    LIVE,
    IDLE,
    PLAYING,
    OPEN,
    SEATS,
    *(f"{OPEN}:{level}" for level in LEVELS),
    *(f"{SEATS}:{level}" for level in LEVELS),
)
_WIDTH = 15  # digits of a creation time in a member (ms: good until the year 33658)


def is_open(data: TableData) -> bool:
    """Listed: public and not finished."""
    return not data.options.private and data.status != "finished"


def has_open_seat(data: TableData) -> bool:
    """A seat a newcomer may take now: an empty one, or the AI's between deals."""
    if data.status == "waiting":
        return any(s.occupant == "empty" for s in data.seats)
    between_deals = data.deal is None or data.phase == "done"
    return between_deals and any(s.occupant != "human" for s in data.seats)


def lists_of(data: TableData) -> list[str]:
    """The lists ``data`` is in, in ``LISTS`` order."""
    found: set[str] = set()
    if data.status != "finished":
        found.add(LIVE)
    if data.status == "playing":
        found.add(PLAYING)
    if data.status == "waiting" and not any(s.occupant == "human" for s in data.seats):
        found.add(IDLE)
    if is_open(data):
        level = data.options.ai_level
        found.update((OPEN, f"{OPEN}:{level}"))
        if has_open_seat(data):
            found.update((SEATS, f"{SEATS}:{level}"))
    return [name for name in LISTS if name in found]


def listing(open_seats: bool, ai_level: str | None) -> str:
    """The list a lobby query reads."""
    name = SEATS if open_seats else OPEN
    return name if ai_level is None else f"{name}:{ai_level}"


def summary_key(data: TableData) -> tuple[object, ...]:
    """What the summary and the lists are made of: when it is unchanged, so are they.

    Compared at each commit: an unchanged field is the same object, so this is cheap.
    """
    deal = data.deal.number if data.deal is not None else 0
    return (
        data.options,
        data.seats,
        data.status,
        data.phase,
        deal,
        data.totals,
        data.next_deal_ms,
        data.created_ms,
    )


def summary_changed(base: TableData | None, data: TableData) -> bool:
    return base is None or summary_key(base) != summary_key(data)


def lobby_summary(data: TableData, summary: m.TableSummary | None = None) -> m.TableSummary:
    """The table as the lobby lists it (``summary``: its summary, if made already). A
    duplicate event's table shows no totals: they are the event's results, which show
    to nobody but its players before the event closes (docs/DUPLICATE.md, "Who sees
    what, when"); its players have them at the table."""
    summary = data.summary() if summary is None else summary
    if data.duplicate is None:
        return summary
    return summary.model_copy(update={"totals": list[m.Points]([0, 0, 0, 0])})


def summary_json(data: TableData) -> str:
    """The table as the lobby shows it (no spectators: they are a node's own count)."""
    return lobby_summary(data).model_dump_json()


def member(data: TableData) -> str:
    return member_at(data.created_ms, data.table_id)


def member_at(created_ms: int, table_id: str) -> str:
    return f"{created_ms:0{_WIDTH}d}.{table_id}"


def table_of(member: str) -> str:
    return member[_WIDTH + 1 :]


def cursor_of(member: str) -> str:
    """The lobby's cursor for a member (the creation time unpadded, as it always was)."""
    return f"{int(member[:_WIDTH])}.{table_of(member)}"


def member_of_cursor(cursor: str) -> str:
    created, _, table_id = cursor.partition(".")
    if not created.isdigit() or not table_id or len(created) > _WIDTH:
        raise TableRefused("bad_cursor", f"{cursor!r} is not a lobby cursor from this server")
    return member_at(int(created), table_id)


def created_before(ms: int) -> str:
    """The first member of a table created at ``ms`` or later (an exclusive upper bound)."""
    return f"{max(ms, 0):0{_WIDTH}d}."
