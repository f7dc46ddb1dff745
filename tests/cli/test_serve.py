"""``tarot serve``: bad settings are refused before anything starts; Redis ones reach the store."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from cli.main import main
from protocol import models as m
from server import keys
from server.app import make_store
from server.redis_store import RedisStore
from server.settings import Settings
from server.tabledata import TableData

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
        (["--redis", "http://x"], "redis URL"),
        (["--port", "70000"], "port"),
    ],
)
def test_bad_settings_are_refused_with_a_clear_message(
    flags: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tarot serve: ") and says in err
    assert "Traceback" not in err


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
