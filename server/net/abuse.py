"""A connection closed for abuse (a flood of messages or pings, a client that does not
read): one log line with the client's address in a field, the count by code, and the
close (``close``: now with ``at_once``, else at the loop's next turn)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from server.metrics import Metrics

log = logging.getLogger("tarot.connection")
PINGS = "pings past the rate limit"


def abuse_closed(
    address: str,
    metrics: Metrics,
    why: str,
    close: Callable[[], None] | None = None,
    code: str = "abuse_closed",
    at_once: bool = False,
) -> None:
    log.warning("closing a connection: %s", why, extra={"address": address})
    metrics.refused.labels(code=code).inc()
    if close is not None and at_once:
        close()
    elif close is not None:
        asyncio.get_running_loop().call_soon(close)
