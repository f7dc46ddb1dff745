"""What one client, and all of them together, may ask of the history's JSON API (docs/API.md).

Each API request reads the database, so a node limits them twice: per client
address, a token bucket (the WebSocket messages' ``RateLimit``) refused with
429 and ``Retry-After``; and per node, the queries running at once, refused
with 503 ``busy`` past the bound: a request waiting without end for a database
connection would hold its socket and memory, and such waits are what a flood
from many addresses piles up.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus

from websockets.http11 import Response

from . import http
from .rate_limit import RateLimit

# Buckets kept before the full ones (idle addresses) are forgotten: a flood of
# addresses (IPv6 gives one client many) costs at most this many small objects.
MAX_BUCKETS = 10_000


class ApiLimits:
    """``per_second`` requests from one address (bursts of ``burst``), ``in_flight`` queries
    running on the node at once; 0 turns either off."""

    def __init__(self, per_second: float, burst: int, in_flight: int) -> None:
        self.per_second, self.burst, self.in_flight = per_second, burst, in_flight
        self.buckets: dict[str, RateLimit] = {}
        self.running = 0

    def refusal(self, address: str) -> Response | None:
        """The answer that refuses this request, or None when it may run."""
        if self.per_second and not self._bucket(address).allow():
            wait = (1 - self.buckets[address].tokens) / self.per_second
            return _refused(
                HTTPStatus.TOO_MANY_REQUESTS,
                "rate_limited",
                f"at most {self.per_second:g} API requests a second from one address",
                wait,
            )
        if self.in_flight and self.running >= self.in_flight:
            return _refused(
                HTTPStatus.SERVICE_UNAVAILABLE,
                "busy",
                f"the server answers {self.in_flight} API requests at once: try again",
                1.0,
            )
        return None

    @contextmanager
    def slot(self) -> Iterator[None]:
        """One query running (admitted by ``refusal`` in the same loop turn)."""
        self.running += 1
        try:
            yield
        finally:
            self.running -= 1

    def _bucket(self, address: str) -> RateLimit:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= MAX_BUCKETS:
                self._forget_idle()
            bucket = self.buckets[address] = RateLimit(self.per_second, self.burst)
        return bucket

    def _forget_idle(self) -> None:
        """Drop the buckets refilled to full (they would start full again anyway); if none
        is, the oldest half (their addresses start afresh: a bound, not a precise count)."""
        for address in [a for a, b in self.buckets.items() if _is_full(b)]:
            del self.buckets[address]
        if len(self.buckets) >= MAX_BUCKETS:
            for address in list(self.buckets)[: MAX_BUCKETS // 2]:
                del self.buckets[address]


def _is_full(bucket: RateLimit) -> bool:
    refilled = bucket.tokens + (time.monotonic() - bucket.stamp) * bucket.rate
    return refilled >= bucket.burst


def _refused(status: HTTPStatus, code: str, message: str, wait: float) -> Response:
    response = http.json_error(status, code, message)
    response.headers["Retry-After"] = str(max(1, math.ceil(wait)))
    return response
