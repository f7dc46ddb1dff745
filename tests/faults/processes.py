"""A process's descendants, read from /proc (Linux): what must die with a node
(``cli.local_servers``' helpers, shared with ``tarot soak``)."""

from __future__ import annotations

from cli.local_servers import alive, descendants, kill_all, parents

__all__ = ["alive", "descendants", "kill_all", "parents"]
