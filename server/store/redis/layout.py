"""How a table is laid out in Redis, and the deltas that commits write and publish.

Theory of operation. Re-serialising a whole ``TableData`` on every commit cost
~50 µs of a node's CPU per action (the deal's actions grow through the deal),
and every follower parsed it again. So a table is kept in parts:

    head      the table's JSON without what changes at every action (below)
    version, seq, commit, status   as before (the commit script reads them)
    commits   the ids of the recent commits, space separated (oldest first)
    deadline  ``turn_deadline_ms`` ('' for none)
    actions   a list: one record entry (JSON) per action of the current deal

A commit built on the version this node knows to be stored (its parent) sends
only what changed: the head when it did, and the deal's new actions, appended
(``Delta``); any other commit (a new deal, a table first met in the old
layout, a cache miss) rewrites everything (``Delta.replaces``). The update the
script publishes carries the same delta; a follower whose version is its
parent applies it (``apply``), any other reloads the table.

A table stored by an older node (one ``data`` field holding the whole JSON)
still loads; the next commit rewrites it in parts, and removes ``data``.
Commits that append refuse a table that has ``data``: an older node wrote it
after this layout did, so the parts are stale.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from pydantic_core import to_json

from server.table.data import DealData, StoredEvent, TableData

from . import keys

# The fields kept out of the head, each in its own place (a hash field or the list).
_OUTSIDE = frozenset({"version", "seq", "commits", "turn_deadline_ms", "deal"})
# Read at once as tuples, compared in C (an unchanged field is the same object: ``is``).
_HEAD = attrgetter(*(name for name in TableData.model_fields if name not in _OUTSIDE))
_DEAL = attrgetter(*(name for name in DealData.model_fields if name != "actions"))


@dataclass(frozen=True, slots=True)
class Delta:
    """What a commit writes: ``head`` ('' when unchanged) and the deal's ``actions`` (each
    entry's JSON), appended, or replacing the stored ones when ``replaces``."""

    head: str
    replaces: bool
    actions: list[bytes]


def head_json(table: TableData) -> str:
    """The table's JSON without the fields stored beside it."""
    deal = table.deal.model_copy(update={"actions": []}) if table.deal is not None else None
    bare = {"version": 0, "seq": 0, "commits": [], "turn_deadline_ms": None, "deal": deal}
    return table.model_copy(update=bare).model_dump_json()


def delta(base: TableData | None, table: TableData) -> Delta:
    """What committing ``table`` writes over ``base``, the version known to be stored."""
    if (
        base is None
        or not base.commit
        or base.commit != table.parent
        or base.version != table.version - 1
    ):
        return _everything(table)
    deal, known = table.deal, base.deal
    if deal is None or known is None:
        return (
            _everything(table)
            if deal is not known
            else Delta(_head_if_changed(base, table), False, [])
        )
    if (
        _DEAL(deal) != _DEAL(known)
        or len(deal.actions) < len(known.actions)
        or deal.actions[: len(known.actions)] != known.actions
    ):
        return _everything(table)
    added = [to_json(entry) for entry in deal.actions[len(known.actions) :]]
    return Delta(_head_if_changed(base, table), False, added)


def _everything(table: TableData) -> Delta:
    actions = table.deal.actions if table.deal is not None else []
    return Delta(head_json(table), True, [to_json(entry) for entry in actions])


def _head_if_changed(base: TableData, table: TableData) -> str:
    return head_json(table) if _HEAD(base) != _HEAD(table) else ""


def event_json(event: StoredEvent) -> bytes:
    """``event.model_dump_json()``, the same JSON, in a third of the time."""
    return to_json({"seq": event.seq, "audience": event.audience, "event": event.event})


def commits_field(table: TableData) -> str:
    return " ".join(table.commits)


def deadline_field(table: TableData) -> str:
    return "" if table.turn_deadline_ms is None else str(table.turn_deadline_ms)


def assemble(
    head: bytes, version: bytes, seq: bytes, commits: bytes, deadline: bytes, actions: list[bytes]
) -> TableData:
    """The table stored in parts (as ``load`` reads them, or an update carries them)."""
    table = TableData.model_validate_json(head)
    return _with(table, int(version), int(seq), commits, deadline, _entries(actions))


def _with(
    table: TableData,
    version: int,
    seq: int,
    commits: bytes,
    deadline: bytes,
    actions: list[dict[str, Any]] | None,
) -> TableData:
    changes: dict[str, Any] = {
        "version": version,
        "seq": seq,
        "commits": commits.decode().split(),
        "turn_deadline_ms": int(deadline) if deadline else None,
    }
    if table.deal is not None and actions is not None:
        changes["deal"] = table.deal.model_copy(update={"actions": actions})
    return table.model_copy(update=changes)


def table_keys(table_id: str) -> list[str]:
    """The keys the LOAD script reads."""
    return [keys.state(table_id), keys.actions(table_id)]


def loaded(found: list[Any]) -> TableData | None:
    """A table from the LOAD script's reply: the old layout's whole JSON, or its parts."""
    data, head, version, seq, commits, deadline, actions = found
    if data is not None:
        return TableData.model_validate_json(data)
    if head is None:
        return None
    return assemble(head, version, seq, commits or b"", deadline or b"", actions)


def _entries(actions: list[bytes]) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads(b"[" + b",".join(actions) + b"]")
    return entries


# ------------------------------------------------------------ published updates


@dataclass(frozen=True, slots=True)
class Published:
    """An update as the commit script publishes it (see ``redis_scripts.COMMIT``)."""

    version: int
    commit: bytes
    parent: bytes
    seq: bytes
    commits: bytes
    deadline: bytes
    head: bytes
    replaces: bool
    actions: list[bytes]
    events: list[StoredEvent]

    @property
    def whole(self) -> bool:
        """Whether it holds the whole table (no base needed)."""
        return self.replaces and bool(self.head)

    def follows(self, base: TableData | None) -> bool:
        """Whether ``base`` is the version this update was built on."""
        return (
            base is not None
            and base.version == self.version - 1
            and bool(base.commit)
            and base.commit.encode() == self.parent
        )

    def apply(self, base: TableData | None) -> TableData:
        """The table it makes: from itself when whole, else over ``base`` (its parent)."""
        if self.whole:
            return assemble(
                self.head, b"%d" % self.version, self.seq, self.commits, self.deadline, self.actions
            )
        assert base is not None
        table = TableData.model_validate_json(self.head) if self.head else base
        known = base.deal.actions if base.deal is not None else []
        actions = known + _entries(self.actions) if self.actions else known
        return _with(table, self.version, int(self.seq), self.commits, self.deadline, actions)


def published(payload: bytes) -> Published:
    """Parse an update: version, commit, parent, seq, commits, deadline, head, 'r' or 'a',
    the number of actions, the actions and the events, one a line."""
    version, commit, parent, seq, commits, deadline, head, mode, count, *rest = payload.split(b"\n")
    n = int(count)
    events = [StoredEvent.model_validate_json(e) for e in rest[n:]]
    return Published(
        int(version), commit, parent, seq, commits, deadline, head, mode == b"r", rest[:n], events
    )


def payload(version: int, commit: str, table: TableData, change: Delta, events: list[str]) -> bytes:
    """What the commit script publishes for a commit (tests hand it to a reader)."""
    lines = [str(version), commit, table.parent, str(table.seq), commits_field(table)]
    lines += [deadline_field(table), change.head, "r" if change.replaces else "a"]
    lines += [str(len(change.actions)), *(a.decode() for a in change.actions), *events]
    return "\n".join(lines).encode()


def update_header(payload: bytes) -> tuple[int, bytes]:
    """The version an update brings and its commit id, read before any parsing."""
    version, commit, _ = payload.split(b"\n", 2)
    return int(version), commit
