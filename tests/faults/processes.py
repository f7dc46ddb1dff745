"""A process's descendants, read from /proc (Linux): what must die with a node."""

from __future__ import annotations

import os
from pathlib import Path


def parents() -> dict[int, int]:
    """pid -> parent pid of every process now."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # ended meanwhile
        # "pid (command) state ppid ...": the command may hold spaces and parentheses.
        out[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return out


def descendants(pid: int) -> set[int]:
    tree = parents()
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        children = {child for child, parent in tree.items() if parent in frontier}
        frontier = children - found
        found |= children
    return found


def alive(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running (zombies excluded)."""
    out = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            out.add(pid)
    return out


def kill_all(pids: set[int]) -> None:
    for pid in alive(pids):
        try:
            os.kill(pid, 9)
        except OSError:
            pass
