"""A quick-play table's seats: the group's players in one change, AI beside them, started.

A pure table transition (like ``server/table/seating.py``): the matcher's node commits
it on the table it just made, and hands each player's seat token to the player's node
through the queue (``Seating``). Each seat starts "away" (``dropped_at_ms``): the
player's node takes it at once with the token, as a ``resume`` would; a player who
never comes is played for by the AI when the grace period ends, like any player who
dropped. A seat its player can no longer take (it left the queue, joined another table,
closed, as the matcher seated it) is the AI's at once: ``unseat``. AI seats carry their
level in their name ("AI 4 · expert").
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

import engine
from protocol.skeletons import name_skeleton
from server.table import transitions as tr
from server.table.data import SeatData, TableData, hash_token, new_token

from .matching import TABLE_SIZE


@dataclass(frozen=True, slots=True)
class Sitter:
    """A player of the group, as the table will show it."""

    name: str
    account_id: int | None
    node: str


RATED_TABLE = "Quick play · rated"  # a quick-play table's name says its mode
CASUAL_TABLE = "Quick play · casual"  # its deals are never rated (server/node/archive.py)


def ai_name(seat: int, level: str) -> str:
    return f"AI {seat + 1} · {level}"


def distinct_names(names: list[str]) -> list[str]:
    """The names, those that look alike (UTS #39 skeletons) made different: "Ann (2)"."""
    seen: set[str] = set()
    out: list[str] = []
    for i, name in enumerate(names):
        shown = name or f"Player {i + 1}"
        n = 2
        while name_skeleton(shown) in seen:
            shown = f"{name or f'Player {i + 1}'} ({n})"
            n += 1
        seen.add(name_skeleton(shown))
        out.append(shown)
    return out


def seat_group(
    data: TableData, state: engine.Deal | None, sitters: list[Sitter], now_ms: int
) -> tuple[tr.Change, list[str]]:
    """The change that seats ``sitters`` in seats 0.. and AI after them and starts the
    series; and each sitter's seat token (in the order given)."""
    if data.status != "waiting" or len(sitters) > TABLE_SIZE:
        raise tr.TableRefused("already_started", f"table {data.table_id} is not a new table")
    level = data.options.ai_level
    names = distinct_names([s.name for s in sitters])
    seats: list[SeatData] = []
    tokens: list[str] = []
    for i, sitter in enumerate(sitters):
        token, token_hash = new_token(data.table_id)
        tokens.append(token)
        seats.append(
            SeatData(
                occupant="human",
                name=names[i],
                token_hash=token_hash,
                dropped_at_ms=now_ms,
                session=1,
                node=sitter.node,
                account_id=sitter.account_id,
            )
        )
    seats += [
        SeatData(occupant="ai", name=ai_name(i, level)) for i in range(len(seats), TABLE_SIZE)
    ]
    change = tr.Change(data.model_copy(update={"seats": seats, "status": "playing"}), state)
    for i in range(TABLE_SIZE):
        tr.seat_changed(change, i)
    tr.begin_deal(change, now_ms)
    return change, tokens


def never_taken(seat: SeatData) -> bool:
    """A seat ``seat_group`` gave that its player never took (taking it is a ``resume``:
    the session grows, the seat is present)."""
    return seat.occupant == "human" and seat.session <= 1 and seat.dropped_at_ms is not None


def unseat(data: TableData, state: engine.Deal | None, seat: int, token: str) -> tr.Change:
    """The seat of ``token``, never taken, is the AI's now: its player will not come, and
    the others must not wait on its clock. Taken meanwhile (or already given up): nothing
    changes. A table left with no human is over, as when its last player leaves."""
    change = tr.Change(data, state)
    was = data.seats[seat]
    mine = was.token_hash is not None and hmac.compare_digest(was.token_hash, hash_token(token))
    if not mine or not never_taken(was):
        return change
    seats = list(data.seats)
    seats[seat] = SeatData(occupant="ai", name=ai_name(seat, data.options.ai_level))
    change.data = data.model_copy(update={"seats": seats})
    tr.seat_changed(change, seat)
    if data.status == "playing" and not any(s.occupant == "human" for s in seats):
        tr._finish(change)  # the ending a last leave has (transitions.leave)
    return change
