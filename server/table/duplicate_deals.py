"""What changes at a table that plays a duplicate event's deals (issue 24): pure, no I/O.

Such a table (``TableData.duplicate``) deals the event's deals in order, from
their secret seeds, instead of fresh ones; a deal every seat passes (R4) is
one of them, played and scored 0 like any other, not dealt again. Its AI
decides from the deal's seed and the actions so far, not from the table's id,
so that the AI seats play alike for every entrant who meets them in the same
position. Nobody may take a free seat but through the event (``duplicate_play``),
and a table of four is seated before its first deal for the whole event.
docs/DUPLICATE.md, "Playing".
"""

from __future__ import annotations

from .data import DuplicateDeal, TableData
from .refusals import TableRefused


def next_event_deal(data: TableData) -> DuplicateDeal | None:
    """The event's deal this table deals next (None: not a duplicate table)."""
    planned = data.duplicate
    if planned is None:
        return None
    if planned.dealt >= len(planned.deals):
        raise TableRefused("not_started", f"table {data.table_id} has played its event's deals")
    return planned.deals[planned.dealt]


def dealt_one(data: TableData) -> TableData:
    """``data`` after its next event deal was dealt (a duplicate table only)."""
    planned = data.duplicate
    if planned is None:
        return data
    dealt = planned.model_copy(update={"dealt": planned.dealt + 1})
    return data.model_copy(update={"duplicate": dealt})


def event_deals_over(data: TableData) -> bool:
    """Every deal of the table's event was dealt (and the last is over or under way)."""
    planned = data.duplicate
    return planned is not None and planned.dealt >= len(planned.deals)


def current_event_index(data: TableData) -> int | None:
    """The event's index of the deal being played or just played (None: not duplicate)."""
    planned = data.duplicate
    if planned is None or data.deal is None or planned.dealt < 1:
        return None
    return planned.deals[planned.dealt - 1].index


def decision_seed(data: TableData, fallback: str) -> str:
    """The AI's random seed for its next decision: at a duplicate table the deal's seed and
    how many actions were made (the same position, the same seed, whoever the entrant)."""
    if data.duplicate is None or data.deal is None:
        return fallback
    return f"{data.deal.seed}:{len(data.deal.actions)}"


def check_free_seat(data: TableData, entry: int | None) -> None:
    """A free seat of a duplicate table is taken through its event, before the first deal."""
    if data.duplicate is None:
        return
    if entry is None:
        raise TableRefused(
            "duplicate_table",
            f"table {data.table_id} plays a duplicate event: take a seat with duplicate_play",
        )
    if data.status != "waiting":
        raise TableRefused(
            "already_started",
            f"table {data.table_id} has started: its seats are kept through the event",
        )


def with_entry(data: TableData, seat: int, entry: int | None) -> TableData:
    """``data`` with ``entry`` playing in ``seat`` (a duplicate table only; None: nobody's,
    once its entrant left it before the first deal)."""
    planned = data.duplicate
    if planned is None or planned.entries[seat] == entry:
        return data
    entries = list(planned.entries)
    entries[seat] = entry
    return data.model_copy(update={"duplicate": planned.model_copy(update={"entries": entries})})


def with_left(data: TableData, seat: int, mid_deal: bool) -> TableData:
    """``data`` after the seat's entrant left: in play, it stopped (``with_stopped``);
    before the first deal, the seat plays for nobody (the AI that may take it at the start
    is an AI entrant, not the leaver)."""
    if data.status == "playing":
        return with_stopped(data, seat, mid_deal)
    if data.status == "waiting":
        return with_entry(data, seat, None)
    return data


def with_stopped(data: TableData, seat: int, mid_deal: bool) -> TableData:
    """``data`` after the seat's entrant left: the AI finishes a deal under way for them,
    and the later deals count for nobody."""
    planned = data.duplicate
    if planned is None or planned.stopped[seat] is not None:
        return data
    last = planned.dealt if mid_deal else planned.dealt - (0 if _over(data) else 1)
    stopped = list(planned.stopped)
    stopped[seat] = last
    return data.model_copy(update={"duplicate": planned.model_copy(update={"stopped": stopped})})


def _over(data: TableData) -> bool:
    """Between deals (or before the first): the last deal dealt is over."""
    return data.deal is not None and data.deal_over_ms is not None


def counts_for(data: TableData, seat: int) -> bool:
    """The deal just played counts for the seat's entry (it had not stopped before it)."""
    planned = data.duplicate
    if planned is None or data.deal is None:
        return False
    stopped = planned.stopped[seat]
    return stopped is None or planned.dealt <= stopped


def check_watchable(data: TableData, now_ms: int) -> None:
    """Nobody watches a duplicate event's table before the event closes: its cards are the
    deals every entrant is still to play."""
    planned = data.duplicate
    if planned is not None and now_ms < planned.closes_ms:
        raise TableRefused(
            "results_hidden",
            f"table {data.table_id} plays a duplicate event's deals: watch it once the event"
            " closes",
        )
