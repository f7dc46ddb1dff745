"""One outage of the table store, logged as one: a WARNING when Redis stops answering,
an INFO line when it answers again, and nothing in between.

Every Redis round trip of a node reports here (``RedisCalls.call``, the pub/sub
listener). Before, each caller logged its own failure: a node with Redis down
wrote "the lobby sweep failed" at ERROR with three tracebacks every 5 s, and
the pub/sub supervisor a line at each retry.
"""

from __future__ import annotations

import logging
import time

log = logging.getLogger("tarot.store")


class Outage:
    """Whether the store answers, as its callers last found it."""

    def __init__(self, name: str = "redis") -> None:
        self.name = name
        self.down_since: float | None = None  # monotonic time of the first failure
        self.failures = 0  # calls failed during this outage
        self.outages = 0  # outages since the node started

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def failed(self, error: object) -> None:
        """A call found the store silent or failing."""
        self.failures += 1
        if self.down_since is None:
            self.down_since = time.monotonic()
            self.outages += 1
            log.warning(
                "%s does not answer: %s (retrying; said again when it is back)", self.name, error
            )

    def answered(self) -> None:
        """A call got its answer."""
        if self.down_since is None:
            return
        seconds = time.monotonic() - self.down_since
        log.info(
            "%s answers again after %.1f s (%d calls failed meanwhile)",
            self.name,
            seconds,
            self.failures,
        )
        self.down_since, self.failures = None, 0
