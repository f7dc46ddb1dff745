"""``tarot serve``: bad settings are refused before anything starts; Redis ones reach the store."""

from __future__ import annotations

import re
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
