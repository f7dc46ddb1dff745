"""A connection closed for abuse (a flood of messages or pings, a client that does not
read): one log line with the client's address in a field, and the count by code."""

from __future__ import annotations

import logging

from server.metrics import Metrics

log = logging.getLogger("tarot.connection")


def abuse_closed(address: str, metrics: Metrics, why: str, code: str = "abuse_closed") -> None:
    log.warning("closing a connection: %s", why, extra={"address": address})
    metrics.refused.labels(code=code).inc()
