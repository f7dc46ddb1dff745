"""Server settings: one dataclass, built from CLI flags and the environment."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field


class SettingsError(ValueError):
    """A setting with a value that cannot be used."""


_COUNTS = ("port", "rate_burst", "abuse_strikes", "lease_ms", "bot_workers", "redis_pool")
TTL_HOURS = (1 / 60, 100_000)
_DURATIONS_AND_RATES = (
    "rate_per_second",
    "ai_pause_seconds",
    "next_deal_seconds",
    "drain_seconds",
    "redis_timeout",
    "idle_ttl_hours",
    "finished_ttl_hours",
)


@dataclass(frozen=True, slots=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8765
    redis_url: str | None = None
    log_format: str = "text"  # "text" or "json"
    node_id: str = field(default_factory=lambda: f"node-{os.getpid()}")
    rate_per_second: float = 50.0  # per connection, refilled continuously
    rate_burst: int = 200
    abuse_strikes: int = 200  # refused-for-rate messages before the connection is closed
    ai_pause_seconds: float = 0.0  # a delay before each AI move, so humans can follow
    next_deal_seconds: float = 30.0  # how long a finished deal waits for "next_deal"
    lease_ms: int = 5000
    drain_seconds: float = 10.0
    bot_workers: int = 1  # processes for search bots
    redis_pool: int = 32  # connections per node; callers wait for a free one
    redis_timeout: float = 2.0  # seconds before a Redis call counts as Redis unavailable
    idle_ttl_hours: float = 7 * 24  # a table is forgotten this long after its last change
    finished_ttl_hours: float = 24  # ... or this long after it finished

    def __post_init__(self) -> None:
        _check_numbers(self)
        if not 0 <= self.port <= 65535:
            raise SettingsError(f"port must be 0-65535, not {self.port}")
        if self.log_format not in ("text", "json"):
            raise SettingsError(f"log format must be text or json, not {self.log_format!r}")
        if self.redis_url is not None and not self.redis_url.startswith(
            ("redis://", "rediss://", "unix://")
        ):
            raise SettingsError(f"redis URL must start with redis://, not {self.redis_url!r}")
        if self.rate_per_second <= 0 or self.rate_burst < 1:
            raise SettingsError("the rate limit must be positive")
        if self.ai_pause_seconds < 0 or self.next_deal_seconds < 0 or self.drain_seconds < 0:
            raise SettingsError("pauses cannot be negative")
        if not 1 <= self.bot_workers <= 256:
            raise SettingsError(f"bot workers must be 1-256, not {self.bot_workers}")
        if self.lease_ms < 300:
            raise SettingsError(f"the lease must last at least 300 ms, not {self.lease_ms}")
        if self.redis_pool < 1 or self.redis_timeout <= 0:
            raise SettingsError("the Redis pool and time-out must be positive")
        # A minute at least (a TTL that rounds to 0 ms would delete a table at each
        # commit), and at most ~11 years (1e300 hours would be a 300-digit expiry).
        if not (
            TTL_HOURS[0] <= self.idle_ttl_hours <= TTL_HOURS[1]
            and TTL_HOURS[0] <= self.finished_ttl_hours <= TTL_HOURS[1]
        ):
            raise SettingsError(
                f"table lifetimes (TTLs) must be {TTL_HOURS[0]:.4f}-{TTL_HOURS[1]:,} hours"
                " (a minute to about 11 years)"
            )

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """Flags (``overrides``, None meaning unset) over TAROT_* variables over defaults."""
        env: dict[str, object] = {}
        if url := os.environ.get("TAROT_REDIS_URL"):
            env["redis_url"] = url
        if fmt := os.environ.get("TAROT_LOG_FORMAT"):
            env["log_format"] = fmt
        if pause := os.environ.get("TAROT_AI_PAUSE"):
            try:
                env["ai_pause_seconds"] = float(pause)
            except ValueError:
                raise SettingsError(f"TAROT_AI_PAUSE must be a number, not {pause!r}") from None
        env.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**env)  # type: ignore[arg-type]


def _check_numbers(settings: Settings) -> None:
    """Counts are whole numbers; durations and rates finite numbers (NaN passes every
    comparison, inf overflows)."""
    for name in _COUNTS:
        value = getattr(settings, name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingsError(f"{name} must be a whole number, not {value!r}")
    for name in _DURATIONS_AND_RATES:
        value = getattr(settings, name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SettingsError(f"{name} must be a number, not {value!r}")
        if not math.isfinite(value):
            raise SettingsError(f"{name} must be a finite number, not {value}")
