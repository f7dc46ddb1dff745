"""Markers for the tests that need a service, applied here so that none is forgotten.

``redis`` (the shared test Redis or Redis servers of the test's own), ``browser``
(Chromium), ``terminal`` (tmux), ``faults`` (the fault suite), ``postgres``
(PostgreSQL, for the history tests' second engine) and ``node`` (Node.js and the npm
packages of package.json: the browser client's checks) are declared in pyproject.toml.
A folder's tests get its marker here, and so do the tests of a module that uses a service's helper
(tmux's); a test elsewhere that needs a service carries the marker itself. Two guards keep the
markers honest: a test without ``redis`` that connects to the shared test Redis
fails, and so does a test without ``browser`` that asks for the ``browser``
fixture. ``tasks.py test`` reads the markers of the selected tests (see
``pytest_collection_finish``) and installs or starts only what they need.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, settings

from .worker_redis import use_a_worker_redis

TESTS = Path(__file__).resolve().parent
FOLDER_MARKERS = {
    "browser": ("browser",),
    "redis": ("redis",),
    "faults": ("faults", "redis"),
    "web": ("node",),
    "balancer": ("nginx", "redis"),
}
SERVICE_MARKERS = ("redis", "browser", "terminal", "postgres", "node", "nginx")
# TAROT_TEST_REDIS names the shared test Redis (e.g. one per work tree run side by side);
# a second xdist worker gets one of its own, set here before any test module reads it.
use_a_worker_redis()
SHARED_REDIS = os.environ.get("TAROT_TEST_REDIS", "redis://127.0.0.1:6379")
SHARED_REDIS_ADDRESS = (
    urlsplit(SHARED_REDIS).hostname or "127.0.0.1",
    urlsplit(SHARED_REDIS).port or 6379,
)
# Where tasks.py asks for the service markers of the selected tests.
SERVICES_FILE = "TAROT_TEST_SERVICES_FILE"


# No property test fails for taking its time: on a loaded machine (CI beside other work) one
# example can wait past Hypothesis's 200 ms deadline, or its data past the too_slow health
# check, and pass when run again: "Flaky". The tests' own settings start from this profile.
settings.register_profile("tarot", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tarot")

# A test module that uses one of these helper modules needs the service behind it.
HELPER_MARKERS = {"tests.clients.tmux": "terminal"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        folder = Path(item.path).resolve().relative_to(TESTS).parts[0]
        for name in FOLDER_MARKERS.get(folder, ()):
            item.add_marker(name)
        for name in _helper_markers(getattr(item, "module", None)):
            item.add_marker(name)


def _helper_markers(module: Any) -> set[str]:
    used = (
        {getattr(value, "__module__", None) for value in vars(module).values()} if module else set()
    )
    return {marker for helper, marker in HELPER_MARKERS.items() if helper in used}


def pytest_collection_finish(session: pytest.Session) -> None:
    target = os.environ.get(SERVICES_FILE)
    if target:
        items = session.items
        needed = {m for item in items for m in SERVICE_MARKERS if item.get_closest_marker(m)}
        Path(target).write_text(json.dumps(sorted(needed)))


def require_marker(node: pytest.Item, name: str, why: str) -> None:
    """Fail a test that uses a service without the marker that selects it."""
    if node.get_closest_marker(name) is None:
        pytest.fail(f"{node.nodeid} {why} but is not marked {name!r}", pytrace=False)


def _is_shared_redis(address: Any) -> bool:
    if not isinstance(address, tuple) or len(address) < 2:
        return False
    host, port = address[0], address[1]
    loopback = {"127.0.0.1", "localhost", "::1"}
    same_host = host == SHARED_REDIS_ADDRESS[0] or {host, SHARED_REDIS_ADDRESS[0]} <= loopback
    return bool(same_host and port == SHARED_REDIS_ADDRESS[1])


@pytest.fixture(autouse=True, scope="session")
def history_of_the_tests(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Servers the tests start (``tarot serve`` in a process) keep their history in a file
    of the test session's, never in the user's default database (nor one in TAROT_DB_URL)."""
    path = tmp_path_factory.mktemp("history") / "history.sqlite3"
    os.environ["TAROT_DB_URL"] = f"sqlite:///{path}"


@pytest.fixture(autouse=True)
def redis_marker_guard(request: pytest.FixtureRequest) -> Iterator[list[Any]]:
    """Outside the ``redis`` tests, connecting to the shared test Redis fails the test.

    asyncio's and redis-py's connections both go through ``socket.connect``. The
    connection is refused (code that retries sees a dead Redis) and the test fails
    when it ends, wherever the attempt was made (a server task, a thread). The
    value is the list of refused attempts (tests of the guard empty it).
    """
    if request.node.get_closest_marker("redis") is not None:
        yield []
        return
    attempts: list[Any] = []
    original = socket.socket.connect
    original_ex = socket.socket.connect_ex

    def refuse(address: Any) -> None:
        if _is_shared_redis(address):
            attempts.append(address)
            raise ConnectionRefusedError(f"the shared test Redis {address} needs the redis marker")

    def connect(sock: socket.socket, address: Any) -> None:
        refuse(address)
        original(sock, address)

    def connect_ex(sock: socket.socket, address: Any) -> int:
        refuse(address)
        return original_ex(sock, address)

    socket.socket.connect = connect  # type: ignore[method-assign,assignment]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign,assignment]
    try:
        yield attempts
    finally:
        socket.socket.connect = original  # type: ignore[method-assign]
        socket.socket.connect_ex = original_ex  # type: ignore[method-assign]
    if attempts:
        require_marker(request.node, "redis", "connects to the shared test Redis")
