"""The README's "path of one card" is the code's: each step calls the next, in those files.

A newcomer learns there where a played card is checked, stored and sent. This
walks the same calls in the source, from the ``act`` frame to the outbox, and
checks that the README names every file on the way: a move or a rename that
leaves the README behind fails here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import engine
from server.net.connection import Connection
from server.node.fanout import Fanout
from server.node.runtime import TableRuntime
from server.node.tables import Tables
from server.store.memory import MemoryStore
from server.store.redis.store import RedisStore
from server.table import commits, transitions

ROOT = Path(__file__).resolve().parents[2]

# (caller, a call its source makes), in the README's order.
CALLS: list[tuple[Callable[..., Any], str]] = [
    (Connection._frame, "self.codec.decode_client("),
    (Connection._dispatch, "self._act("),
    (Connection._act, "action_of("),
    (Connection._act, "runtime.transact(lambda d, s: tr.act("),
    (transitions.act, "engine.step("),
    (engine.step, "apply(deal, action)"),
    (engine.apply, "apply_in_place("),
    (engine.apply_in_place, "legal_cards("),
    (TableRuntime.transact, "committed_update("),
    (TableRuntime.transact, "self.services.store.commit("),
    (TableRuntime.transact, "self.apply_update("),
    (Tables._add, "runtime.apply_update(update)"),  # another node's commit, heard from the store
    (TableRuntime.apply_update, "delivery.receive("),
    (TableRuntime._carry, "self.fanout.carry("),
    (Fanout._send_v1, ".send_frame("),  # version 1: a frame per event, then your_turn
    (Fanout.carry, ".send_frame("),  # version 2: one events frame per reader
    (Connection.send_frame, "self.outbox.put("),
]
# Where the commit lands: the stores' own ``commit``, and the helpers the path names.
NAMED: list[Callable[..., Any]] = [
    commits.committed_update,
    MemoryStore.commit,
    RedisStore.commit,
]


def _path_section() -> str:
    text = (ROOT / "README.md").read_text()
    return text.split("**The path of one card.**")[1].split("\n## ")[0]


def test_each_step_calls_the_next() -> None:
    for caller, call in CALLS:
        assert call in inspect.getsource(caller), (caller.__qualname__, call)


def test_the_readme_names_every_file_on_the_path() -> None:
    section = _path_section()
    files = {inspect.getsourcefile(f) for f, _ in CALLS} | {inspect.getsourcefile(f) for f in NAMED}
    for file in files:
        assert file is not None
        relative = Path(file).relative_to(ROOT)
        # a file is named by its path, or by its name after its folder's first mention
        assert str(relative) in section or (
            f"{relative.parent}/" in section and relative.name in section
        ), relative
    for name in ("transact", "act()", "step", "apply_in_place", "legal_cards", "apply_update"):
        assert name in section, name
