"""A shared test Redis of each pytest-xdist worker's own.

The tests that use the shared test Redis flush its databases (11, 13, 14, 0) at
their start and end: two workers on one Redis would empty each other's tables.
The first worker (and a run without xdist) keeps ``TAROT_TEST_REDIS``; every
other worker starts a Redis of its own on a free port, before any test module
reads the variable, and stops it when the worker's process exits.
"""

from __future__ import annotations

import atexit
import os
import tempfile
from pathlib import Path

from cli.local_servers import RedisServer

FIRST_WORKER = "gw0"
OWNER = "TAROT_TEST_REDIS_WORKER"  # the worker whose Redis TAROT_TEST_REDIS names


def use_a_worker_redis() -> None:
    """Point ``TAROT_TEST_REDIS`` at this worker's own Redis (started here), unless
    this process is the first worker or runs without xdist."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None or worker == FIRST_WORKER or os.environ.get(OWNER) == worker:
        return  # the first worker, no xdist, or a child process of the worker (pytest in pytest)
    workdir = Path(tempfile.mkdtemp(prefix=f"tarot-redis-{worker}-"))
    server = RedisServer(workdir, "--appendonly", "no").start()
    atexit.register(server.stop)
    os.environ["TAROT_TEST_REDIS"] = f"redis://127.0.0.1:{server.port}"
    os.environ[OWNER] = worker
