"""What a commit makes: the next version of a table, and the engine state that follows it.

Pure functions over ``TableData``. ``committed_update`` numbers a change for the
store (its version, commit id naming the parent, events after the table's, each
in the log's storage form, ``stored_events.py``, as the change made it);
``followed_state`` brings a cached engine state to a newer version of the same
table, replaying only the actions it has not seen (a full replay from the seed
when the deal changed or the cache is not a prefix of it).
"""

from __future__ import annotations

from dataclasses import dataclass

import engine

from . import transitions as tr
from .data import StoredEvent, TableData, deal_state, next_commits, replaced

__all__ = ["Update", "committed_update", "followed_state"]


@dataclass(frozen=True, slots=True)
class Update:
    """A committed change, as every subscribed node hears of it."""

    table: TableData
    events: list[StoredEvent]


def committed_update(data: TableData, change: tr.Change) -> Update:
    """The update that committing ``change`` on ``data`` makes: the next version, its
    commit id (naming its parent), its events numbered after the table's."""
    phase = change.state.phase.value if change.state is not None else None
    new = replaced(
        change.data,
        {
            "version": data.version + 1,
            "seq": data.seq + len(change.events),
            "phase": phase,
            "commits": next_commits(data.commits),
        },
    )
    stored = [
        StoredEvent(seq=data.seq + i + 1, audience=aud, event=ev)
        for i, (aud, ev) in enumerate(change.events)
    ]
    return Update(new, stored)


def followed_state(old: TableData, state: engine.Deal | None, new: TableData) -> engine.Deal | None:
    """The engine state of ``new``, from ``state`` (that of ``old``) when ``new`` extends it."""
    deal, known = new.deal, old.deal
    if deal is None:
        return None
    if (
        state is not None
        and known is not None
        and known.number == deal.number
        and known.seed == deal.seed
        and deal.actions[: len(known.actions)] == known.actions
    ):
        state = state.copy()
        for entry in deal.actions[len(known.actions) :]:
            engine.apply_in_place(state, engine.entry_action(entry))
        return state
    return deal_state(deal)
