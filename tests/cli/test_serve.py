"""``tarot serve``: bad settings are refused before anything starts; Redis ones reach the store."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from cli.main import main
from protocol import models as m
from server.node.build import make_store
from server.settings import Settings, SettingsError
from server.store.redis import keys
from server.store.redis.store import RedisStore
from server.table.data import TableData

from ..redis.servers import SHARED_REDIS

ROOT = Path(__file__).resolve().parents[2]

URL = f"{SHARED_REDIS}/11"


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--redis-pool", "0"], "pool"),
        (["--redis-timeout", "0"], "time-out"),
        (["--lease-ms", "10"], "lease"),
        (["--idle-ttl-hours", "-1"], "TTL"),
        (["--finished-ttl-hours", "0"], "TTL"),
        (["--idle-ttl-hours", "1e-7"], "a minute to about 11 years"),
        (["--finished-ttl-hours", "1e300"], "a minute to about 11 years"),
        (["--redis", "http://x"], "redis URL"),
        (["--port", "70000"], "port"),
        (["--ai-pause", "-1"], "negative"),
        (["--bot-workers", "0"], "bot workers must be 1-256, not 0"),
        (["--bot-workers", "10000"], "bot workers must be 1-256, not 10000"),
        (["--ai-pause", "nan"], "ai_pause_seconds must be a finite number"),
        (["--redis-timeout", "inf"], "redis_timeout must be a finite number"),
        (["--idle-ttl-hours", "nan"], "idle_ttl_hours must be a finite number"),
    ],
)
def test_bad_settings_are_refused_with_a_clear_message(
    flags: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tarot serve: ") and says in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("TAROT_AI_PAUSE", "soon", "TAROT_AI_PAUSE must be a number, not 'soon'"),
        ("TAROT_LOG_FORMAT", "xml", "log format must be text or json, not 'xml'"),
        ("TAROT_REDIS_URL", "http://x", "redis URL must start with redis://"),
    ],
)
def test_bad_environment_variables_are_refused_too(
    variable: str,
    value: str,
    says: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv(variable, value)
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tarot serve: ") and says in err


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"bot_workers": 0}, "bot workers must be 1-256, not 0"),
        ({"drain_seconds": -1.0}, "pauses cannot be negative"),
        ({"next_deal_seconds": float("inf")}, "next_deal_seconds must be a finite number"),
        ({"rate_per_second": "fast"}, "rate_per_second must be a number, not 'fast'"),
        ({"ai_pause_seconds": True}, "ai_pause_seconds must be a number, not True"),
        ({"port": "80"}, "port must be a whole number, not '80'"),
        ({"bot_workers": 1.5}, "bot_workers must be a whole number, not 1.5"),
    ],
)
def test_settings_built_in_code_are_checked_the_same_way(fields: dict[str, Any], says: str) -> None:
    with pytest.raises(SettingsError, match=re.escape(says)):
        Settings(**fields)


@pytest.mark.redis
async def test_redis_settings_reach_the_store() -> None:
    settings = Settings(
        redis_url=URL,
        redis_pool=3,
        redis_timeout=0.7,
        idle_ttl_hours=1,
        finished_ttl_hours=0.5,
    )
    store = await make_store(settings)
    assert isinstance(store, RedisStore)
    client: Redis = Redis.from_url(URL)
    try:
        assert (store.op_timeout, store.idle_ttl_ms, store.finished_ttl_ms) == (0.7, 3.6e6, 1.8e6)
        assert store._slots._value == 3  # callers wait for one of 3 connections
        await store.create(TableData(table_id="ttl", options=m.TableOptions()))
        assert 3_500_000 < await client.pttl(keys.state("ttl")) <= 3_600_000
    finally:
        await client.flushdb()
        await client.aclose()
        await store.close()


def serve_once(data: Path, *flags: str) -> tuple[str, str, int]:
    """``tarot serve --port 0 FLAGS`` as a user starts it, with its data folder in ``data``:
    its standard output and error from the start until SIGTERM ends it, and its exit status
    (0: it handled the signal and drained)."""
    env = {k: v for k, v in os.environ.items() if k not in ("TAROT_DB_URL", "TAROT_LOG_FORMAT")}
    env |= {"XDG_DATA_HOME": str(data), "PYTHONUNBUFFERED": "1"}
    args = [sys.executable, "-m", "cli.main", "serve", "--port", "0", *flags]
    errors = data / "stderr.txt"
    with (
        errors.open("w") as err,
        subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=err, text=True
        ) as node,
    ):
        assert node.stdout is not None
        out = [node.stdout.readline()]  # the URL: the node is up, and handles SIGTERM
        node.send_signal(signal.SIGTERM)
        out.append(node.stdout.read())  # the rest, until it has drained and exited
        status = node.wait(30)
    return "".join(out), errors.read_text(), status


def test_tarot_serve_says_once_where_it_listens_and_where_its_history_is(tmp_path: Path) -> None:
    """Issue 27.15: the 'serving on' line came twice (a log line and a print), a dozen of
    Alembic's INFO lines came before it, and nothing said which database the history went
    to: by default a file in the user's home, which every checkout shares."""
    out, err, status = serve_once(tmp_path)
    url = re.search(r"http://127\.0\.0\.1:\d+/", out)
    assert url is not None and (out + err).count(url[0]) == 1, out + err
    assert "alembic" not in err.lower() and "INFO alembic" not in out, err
    default = tmp_path / "cardavia-tarot" / "history.sqlite3"
    assert f"  history: {default}\n" in out and "(the default, shared by every checkout" in out
    assert err.count("migrated the history database from empty to ") == 1, err
    assert status == 0  # a SIGTERM just after the line is handled: the node drains
    again, err, status = serve_once(tmp_path)
    assert "migrated" not in err and f"history: {default}" in again  # already at the newest
    own = tmp_path / "own.sqlite3"
    out, err, status = serve_once(tmp_path, "--db", str(own))
    assert f"  history: {own}\n" in out and "default" not in out, out


def test_tarot_serve_with_json_logs_says_it_once_in_the_log_and_once_to_scripts(
    tmp_path: Path,
) -> None:
    out, err, _ = serve_once(tmp_path, "--log-format", "json")
    records = [json.loads(line) for line in err.splitlines()]  # every line of the log is JSON
    serving = [r["message"] for r in records if r["message"].startswith("serving on")]
    assert len(serving) == 1 and "history: " in serving[0], records
    assert out.count("tarot server on http://127.0.0.1:") == 1, out  # cli/local_servers reads it
