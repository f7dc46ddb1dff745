"""Issue 25.3: each wrong setting of ``tarot serve`` is one line and an exit status, never a
traceback, and nothing is retried for ever that cannot succeed."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.local_servers import RedisServer, free_port
from server.settings import Settings, SettingsError

ROOT = Path(__file__).resolve().parents[2]


def serve(tmp_path: Path, *flags: str, seconds: float = 30) -> tuple[int, str]:
    """``tarot serve --port 0 FLAGS`` that must fail: its status and its standard error."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAROT_")}
    env |= {"XDG_DATA_HOME": str(tmp_path / "data")}
    args = [sys.executable, "-m", "cli.main", "serve", "--port", "0", *flags]
    done = subprocess.run(
        args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=seconds, check=False
    )
    return done.returncode, done.stderr


def one_line(err: str) -> str:
    """The one line that says why (a fresh database's migration line may come before)."""
    lines = [line for line in err.strip().splitlines() if "migrated the history" not in line]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_a_file_that_is_not_sqlite_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a database\n" * 100)
    status, err = serve(tmp_path, "--db", "notes.txt")
    line = one_line(err)
    assert status == 2 and "notes.txt" in line and "file is not a database" in line, err


def test_a_database_folder_that_is_a_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("")
    status, err = serve(tmp_path, "--db", "afile/history.sqlite3")
    line = one_line(err)
    assert status == 2 and "is a file" in line and "cannot listen" not in line, err


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--trusted-proxies", "foo/99"], "trusted proxy 'foo/99' is not an address"),
        (["--trusted-proxies", "10.0.0.0/99"], "trusted proxy '10.0.0.0/99'"),
        (["--send-buffer-bytes", "-1"], "send_buffer_bytes cannot be negative"),
    ],
)
def test_bad_limits_are_refused(tmp_path: Path, flags: list[str], says: str) -> None:
    status, err = serve(tmp_path, *flags)
    assert status == 2 and says in one_line(err), err


@pytest.mark.parametrize(
    ("queue", "says"),
    [
        # Accepted at start, then TableOptions refused it at every match: play_now was
        # internal and matched players searched for ever (the probe's defect 8).
        ("turn_seconds=5000", "turn_seconds: input should be less than or equal to 3600"),
        ("turn_seconds=0.0", "turn_seconds: input should be greater than 0"),
        ("ai_level=godlike", "ai_level: input should be 'random', 'basic'"),
        # Deadlines and expiries past what msgpack and Redis take.
        ("ready_seconds=1e300", "ready_seconds must be at most 604,800"),
        ("abandon_window_hours=1e12", "abandon_window_hours must be at most"),
        ("lease_ms=99999999999999999999", "lease_ms must be at most"),
    ],
)
def test_queue_settings_its_tables_would_refuse_are_refused_at_start(
    tmp_path: Path, queue: str, says: str
) -> None:
    status, err = serve(tmp_path, "--queue", queue)
    assert status == 2 and f"queue setting {says}" in one_line(err), err


def test_the_duplicate_tables_ai_level_is_checked_by_the_tables_own_rule() -> None:
    with pytest.raises(SettingsError, match="duplicate_ai_level: input should be 'random'"):
        Settings(duplicate_ai_level="godlike")


def test_a_taken_metrics_port_is_the_one_named(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, err = serve(tmp_path, "--db", "h.sqlite3", "--metrics-port", str(port))
    line = one_line(err)
    assert status == 1 and f"127.0.0.1:{port} (--metrics-port)" in line, err
    assert "address already in use" in line, err


def test_a_json_log_stays_json_when_the_node_cannot_start(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a database\n")
    status, err = serve(tmp_path, "--db", "notes.txt", "--log-format", "json")
    record = json.loads(one_line(err))
    assert status == 2 and record["level"] == "critical" and "notes.txt" in record["message"]


@pytest.fixture
def locked_redis(tmp_path: Path) -> Iterator[RedisServer]:
    redis = RedisServer(tmp_path / "redis").start()  # answers PING, then wants a password
    password = ["redis-cli", "-p", str(redis.port), "CONFIG", "SET", "requirepass", "s3cret"]
    subprocess.run(password, check=True, capture_output=True)
    try:
        yield redis
    finally:
        redis.stop()


@pytest.mark.redis
@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("redis://127.0.0.1:{port}/0", "redis refuses this node: authentication required"),
        ("redis://:wrong@127.0.0.1:{port}/0", "invalid username-password pair"),
        ("redis://:s3cret@127.0.0.1:{port}/99", "DB index is out of range"),
    ],
)
def test_permanent_redis_refusals_fail_at_once(
    tmp_path: Path, locked_redis: RedisServer, url: str, says: str
) -> None:
    """Before: "waiting for redis" every 5 s for ever, the port never bound."""
    status, err = serve(
        tmp_path, "--db", "h.sqlite3", "--redis", url.format(port=locked_redis.port), seconds=20
    )
    line = one_line(err)
    assert status == 2 and says.lower() in line.lower() and "s3cret" not in line, err


def test_redis_that_never_answers_is_status_1(tmp_path: Path) -> None:
    """Not a permanent refusal: the node waits (30 s), then says so in one line."""
    port = free_port()  # nothing listens there
    status, err = serve(
        tmp_path, "--db", "h.sqlite3", "--redis", f"redis://127.0.0.1:{port}/0", seconds=60
    )
    assert status == 1 and err.strip().splitlines()[-1].startswith(
        "tarot serve: redis does not answer"
    )
    assert "Traceback" not in err


@pytest.mark.skipif(
    importlib.util.find_spec("uvloop") is not None, reason="uvloop is installed (not in CI)"
)
def test_uvloop_asked_where_it_is_not_installed_is_one_line(tmp_path: Path) -> None:
    """It was an import's traceback at start-up, after the settings had been accepted."""
    code, err = serve(tmp_path, "--event-loop", "uvloop")
    assert code == 2
    assert "uvloop is not installed" in err and "Traceback" not in err
