"""An operator closes a table (the admin API): it is over, with the totals it has."""

from __future__ import annotations

import engine

from .data import TableData
from .stored_events import table_event
from .transitions import Change


def close(data: TableData, state: engine.Deal | None) -> Change:
    """The table finished now (a deal under way is not scored); a finished one unchanged."""
    change = Change(data, state)
    if data.status != "finished":
        change.data = data.model_copy(update={"status": "finished", "turn_deadline_ms": None})
        change.emit(table_event("table_over", totals=data.totals))
    return change
