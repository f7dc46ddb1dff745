"""Quick play's settings (docs/DEPLOY.md, "Quick play"): ``Settings.queue``, from
``tarot serve --queue NAME=VALUE,...`` or ``TAROT_QUEUE``."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from server.setting_checks import TTL_HOURS, SettingsError, check_table_options, split_list


@dataclass(frozen=True, slots=True)
class QueueSettings:
    """Quick play (docs/DEPLOY.md, "Quick play"): the matching, the ready check, its tables."""

    spread: float = 150.0  # rating points apart a group may be at first
    wide_spread: float = 400.0  # ... after wide_after_seconds of waiting
    wide_after_seconds: float = 30.0
    anyone_after_seconds: float = 60.0  # then any ratings
    fill_three_seconds: float = 45.0  # then three humans and one AI
    fill_two_seconds: float = 60.0  # then two humans and two AI
    ready_seconds: float = 10.0  # the ready check
    turn_seconds: float | None = 30.0  # quick-play tables' turn clock (None: none)
    ai_level: str = "expert"  # the AI seated beside the humans
    abandon_wait_seconds: float = 60.0  # the first abandon's wait; doubled at each next one
    abandon_wait_max_seconds: float = 1800.0
    abandon_window_hours: float = 24.0  # abandons are forgotten this long after the last
    tick_seconds: float = 0.25  # how often the node reads its tickets (and matches)
    lease_ms: int = 5000  # a ticket whose node stops renewing it goes then

    def __post_init__(self) -> None:
        for each in fields(self):
            value = getattr(self, each.name)
            if isinstance(value, int | float) and not 0 <= value < math.inf:
                name = each.name
                raise SettingsError(f"queue setting {name} must be a finite number >= 0")
            most = _QUEUE_MOST.get(each.name.rsplit("_", 1)[-1])
            if most is not None and isinstance(value, int | float) and value > most:
                raise SettingsError(f"queue setting {each.name} must be at most {most:,}")
        if self.tick_seconds <= 0 or self.lease_ms < 1000 or self.ready_seconds <= 0:
            raise SettingsError("queue tick, ready check and lease must be positive (lease >= 1 s)")
        check_table_options(
            "queue setting ", ai_level=self.ai_level, turn_seconds=self.turn_seconds
        )

    @classmethod
    def parse(cls, text: str) -> QueueSettings:
        """``"ready_seconds=5, turn_seconds=none"``: ``--queue`` and ``TAROT_QUEUE``."""
        known = {f.name: f for f in fields(cls)}
        values: dict[str, object] = {}
        for item in split_list(text):
            name, _, value = item.partition("=")
            name = name.strip().replace("-", "_")
            if name not in known or not value:
                raise SettingsError(
                    f"queue setting {item!r}: NAME=VALUE, NAME one of {sorted(known)}"
                )
            values[name] = _queue_value(name, value.strip())
        return cls(**values)  # type: ignore[arg-type]


# The most a queue duration may be, by its unit: past a week a wait means nothing, and
# the deadlines and Redis expiries it makes grew past what msgpack and Redis take.
_QUEUE_MOST = {"seconds": 7 * 24 * 3600, "hours": TTL_HOURS[1], "ms": 7 * 24 * 3600 * 1000}


def _queue_value(name: str, value: str) -> object:
    if name == "ai_level":
        return value
    if name == "turn_seconds" and value.lower() in ("none", "0"):
        return None
    try:
        return int(value) if name == "lease_ms" else float(value)
    except ValueError:
        raise SettingsError(f"queue setting {name} must be a number, not {value!r}") from None
