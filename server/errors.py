"""The root of every error the server raises on purpose.

Each layer keeps its own hierarchy (``TableError``, ``StoreError``,
``HistoryError``, ``DuplicateError``, ``SettingsError``, ...), and every one of
them is a ``ServerError``: a caller that runs server code (the command line, a
test harness) tells the server's refusals from its bugs with one ``except``.
"""

from __future__ import annotations


class ServerError(Exception):
    """Something the server refuses or cannot do, said in words (``str``)."""
