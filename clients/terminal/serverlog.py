"""The local server's warnings, in the terminal's log: a player is told when its table fails.

``tarot play`` without ``--server`` runs a server inside the terminal UI, whose
standard error is the UI's: a warning written there ("the driver failed", "a
bot worker died") would reach nobody. This handler puts each warning of the
``tarot`` loggers on a line of the log instead, as text.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any


class ServerLog(logging.Handler):
    """Writes ``tarot.*`` warnings (and worse) through ``write`` (the app's log)."""

    def __init__(self, write: Callable[[str], None], call_from_thread: Callable[..., Any]) -> None:
        super().__init__(logging.WARNING)
        self.write = write
        self.call_from_thread = call_from_thread
        self.thread = threading.get_ident()  # the UI's: records from others are handed over

    def emit(self, record: logging.LogRecord) -> None:
        line = f"Server: {record.levelname.lower()}: {record.getMessage()}"
        if threading.get_ident() == self.thread:
            self.write(line)
        else:
            with contextlib.suppress(RuntimeError):  # the UI has stopped: nobody to tell
                self.call_from_thread(self.write, line)

    def attach(self) -> ServerLog:
        logging.getLogger("tarot").addHandler(self)
        return self

    def detach(self) -> None:
        logging.getLogger("tarot").removeHandler(self)
