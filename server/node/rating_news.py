"""Rating changes the history made, told to the tables loaded here (``ratings`` events).

The history's writer calls ``tell`` with the changes it just made (each deal is
rated once, by one node's writer: the one that wrote it first); the tables'
commits go out in the background and are retried while the store is away.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

import engine
from server.table.data import TableData
from server.table.rating_news import SeatRating, rated
from server.table.transitions import Change

from .runtime import Build
from .tables import Tables

if TYPE_CHECKING:
    from server.history.ratings import RatingChange


def tell(tables: Tables, changes: Sequence[RatingChange]) -> None:
    by_deal: dict[tuple[str, int], list[SeatRating]] = defaultdict(list)
    for c in changes:
        by_deal[(c.table_id, c.deal_number)].append(SeatRating(c.seat, c.before, c.after))
    for (table_id, index), lines in by_deal.items():
        runtime = tables.get(table_id)
        if runtime is not None:
            runtime.commit_later(_build(index, lines))


def _build(index: int, lines: list[SeatRating]) -> Build:
    def build(data: TableData, state: engine.Deal | None) -> Change:
        return rated(data, state, index, lines)

    return build
