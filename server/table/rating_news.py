"""The ``ratings`` event without I/O: a rated deal's rating changes, told to its table.

The history rates a deal after it is written, in the background (a moment after
the deal's ``record``, maybe after the next deal was dealt); the node that
rated it hands the changes here, and the table tells everyone with one public
``ratings`` event, for the score sheet (docs/PROTOCOL.md, section 17).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import engine

from . import transitions as tr
from .data import TableData
from .stored_events import table_event


class SeatRating(NamedTuple):
    seat: int
    before: float
    after: float


def deal_number_of(data: TableData, index: int) -> int:
    """The series number (``score``'s ``deal_number``) of the deal dealt ``index``-th
    (from 0, as the history keys it): the current deal's, or counted back from it."""
    current = data.deal.number if data.deal is not None else data.played
    return max(1, current - (data.dealt - 1 - index))


def rated(
    data: TableData, state: engine.Deal | None, index: int, lines: Sequence[SeatRating]
) -> tr.Change:
    change = tr.Change(data, state)
    if not lines:
        return change
    event = table_event(
        "ratings",
        number=deal_number_of(data, index),
        # [seat, name, before, after] each; floats, as the wire's model made them (1500.0)
        changes=[
            [
                line.seat,
                data.seats[line.seat].name,
                round(float(line.before), 1),
                round(float(line.after), 1),
            ]
            for line in sorted(lines)
        ],
    )
    change.emit(event)
    return change
