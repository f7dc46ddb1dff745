"""The security settings: their defaults, their variables, what they refuse."""

from __future__ import annotations

import logging

import pytest

from server.logs import ClientNoise
from server.settings import Settings, SettingsError


def test_hosts_default_to_loopback_and_the_listen_address() -> None:
    assert Settings().hosts() == ("127.0.0.1", "localhost", "::1", "127.0.0.1")
    assert "0.0.0.0" not in Settings(host="0.0.0.0").hosts()
    assert Settings(host="10.1.2.3").hosts()[-1] == "10.1.2.3"
    assert Settings(allowed_hosts=("tarot.example",)).hosts() == ("tarot.example",)


def test_list_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAROT_ALLOWED_HOSTS", "tarot.example, www.tarot.example")
    monkeypatch.setenv("TAROT_TRUSTED_PROXIES", "10.0.0.0/8")
    monkeypatch.setenv("TAROT_METRICS_TOKEN", "0123456789abcdef")
    settings = Settings.from_env()
    assert settings.allowed_hosts == ("tarot.example", "www.tarot.example")
    assert settings.trusted_proxies == ("10.0.0.0/8",)
    assert settings.metrics_token == "0123456789abcdef"


@pytest.mark.parametrize(
    "bad",
    [
        {"max_tables": -1},
        {"tables_per_address": 1.5},
        {"connections_per_address": -3},
        {"api_per_second": -1},
        {"api_per_second": float("inf")},
        {"api_burst": 0},
        {"api_in_flight": -2},
        {"empty_table_seconds": 0},
        {"empty_table_seconds": float("nan")},
        {"metrics_port": 70000},
        {"metrics_token": "short"},
    ],
)
def test_unusable_limits_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(SettingsError):
        Settings(**bad)  # type: ignore[arg-type]


def record(name: str, message: str, error: BaseException | None = None) -> logging.LogRecord:
    info = (type(error), error, None) if error else None
    return logging.LogRecord(name, logging.ERROR, __file__, 1, message, None, info)


def test_client_noise_is_one_line_and_ten_a_minute_of_each_kind() -> None:
    noise = ClientNoise(burst=10, period=60)
    accepted = [
        noise.filter(record("asyncio", "socket.accept() out of system resource\nsocket: <fd=6>", e))
        for e in [OSError(24, "Too many open files")] * 50
    ]
    assert accepted.count(True) == 10
    line = record("asyncio", "socket.accept() out of system resource\nsocket: <fd=6>", OSError())
    noise = ClientNoise()
    noise.filter(line)
    assert "\n" not in line.getMessage() and line.exc_info is None
    ours = record("tarot.table", "table %s: the driver failed", ValueError("bug"))
    assert noise.filter(ours) and ours.exc_info is not None  # our bugs keep their traceback
