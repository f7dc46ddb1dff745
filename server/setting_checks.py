"""What every settings module checks its values with: the error a bad setting is, the
list syntax of flags and variables, and the table model's limits (``TableOptions``).
A leaf: ``server/settings.py`` and ``server/queue/settings.py`` both build on it."""

from __future__ import annotations

from pydantic import ValidationError

from protocol.models import TableOptions
from server.errors import ServerError

TTL_HOURS = (1 / 60, 100_000)  # the least and most a table's lifetime may be


class SettingsError(ServerError, ValueError):
    """A setting with a value that cannot be used."""


def split_list(text: str) -> tuple[str, ...]:
    """``"a, b,c"`` -> ``("a", "b", "c")``: a list setting from a flag or a variable."""
    return tuple(item.strip() for item in text.split(",") if item.strip())


def check_table_options(prefix: str, **options: object) -> None:
    """Options a node will give its tables, checked at start by the table model's own
    limits (``TableOptions``; ``prefix`` + the option names the setting): a quick-play turn
    clock of 5000 s was accepted, then refused at every match, and nobody was seated."""
    try:
        TableOptions.model_validate(options)
    except ValidationError as e:
        error = e.errors()[0]
        name = ".".join(str(part) for part in error["loc"])
        said = f"{error['msg'][0].lower()}{error['msg'][1:]}"
        raise SettingsError(f"{prefix}{name}: {said}, not {error['input']!r}") from None
