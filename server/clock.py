"""The server's wall clock, in the milliseconds the table data and the protocol use."""

from __future__ import annotations

import time


def now_ms() -> int:
    return int(time.time() * 1000)
