"""Argument types shared by the subcommands.

A bad value becomes argparse's usage error (exit status 2, one line naming the
flag), before anything starts: never a traceback from deep inside a client.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import UTC, datetime

from pydantic import BaseModel, TypeAdapter, ValidationError
from websockets.exceptions import InvalidURI
from websockets.uri import parse_uri

from protocol import models as m
from protocol.errors import BadName
from protocol.models.base import WIRE_INT_MAX, TableId
from protocol.names import PLAYER_NAME_MAX, given_name
from server.event_loop import LOOPS, missing


def at_least(low: int, most: int | None = None) -> Callable[[str], int]:
    """An integer no smaller than ``low`` (and no larger than ``most``, if given)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"must be at most {most}, not {text[:30]}")
        return value

    parse.__name__ = f"at_least_{low}"
    return parse


def bounds_of(model: type[BaseModel], field: str) -> tuple[int, int]:
    """The least and the most a wire model allows in an integer field: a flag that ends up
    in that field is checked by the protocol's own limits, not by a copy of them."""
    found = {
        k: getattr(c, k)
        for c in model.model_fields[field].metadata
        for k in ("ge", "le")
        if hasattr(c, k)
    }
    return int(found["ge"]), int(found["le"])


# An id or a count that reaches a database: at most what the protocol lets a client name
# (an integer past SQLite's 64 bits was an OverflowError's traceback).
stored_number = at_least(1, WIRE_INT_MAX)
table_deals = at_least(*bounds_of(m.TableOptions, "deals"))  # the deals of a new table
QUEUE_DEALS_MAX = bounds_of(m.Queue, "deals")[1]  # quick play's tables are shorter
_TABLE_ID: TypeAdapter[str] = TypeAdapter(TableId)


def invite_code(text: str) -> str:
    """A private table's invite code, as long as ``join`` takes (``Join.invite``)."""
    least, most = _length_bounds(m.Join, "invite")
    if not least <= len(text) <= most:
        raise argparse.ArgumentTypeError(
            f"an invite code has {least}-{most} characters, not {len(text)}"
        )
    return text


def _length_bounds(model: type[BaseModel], field: str) -> tuple[int, int]:
    """The least (one if it says none) and the most characters a wire model's text field
    takes, whichever of its constraints says so."""
    metadata = model.model_fields[field].metadata
    least = max([1, *(c.min_length for c in metadata if hasattr(c, "min_length"))])
    most = min(c.max_length for c in metadata if hasattr(c, "max_length"))
    return least, most


def player_name(text: str) -> str:
    """A name shown at a table, by the server's rules for a name given (protocol/names.py:
    no link either), cleaned."""
    try:
        return given_name(text, PLAYER_NAME_MAX)
    except BadName as e:
        raise argparse.ArgumentTypeError(f"not a player name: {e}") from None


def table_id(text: str) -> str:
    """A table's id as the server makes them: 1-64 letters, digits, ``_`` or ``-``."""
    try:
        return _TABLE_ID.validate_python(text)
    except ValidationError:
        raise argparse.ArgumentTypeError(
            f"not a table id (1-64 letters, digits, _ or -): {text[:70]!r}"
        ) from None


def non_negative(unit: str) -> Callable[[str], float]:
    """A finite number of ``unit``, zero or more (NaN and infinity are refused)."""
    return _finite(unit, above_zero=False)


def positive(unit: str) -> Callable[[str], float]:
    """A finite number of ``unit`` above zero."""
    return _finite(unit, above_zero=True)


def _finite(unit: str, above_zero: bool) -> Callable[[str], float]:
    bound = " above zero" if above_zero else ", zero or more"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number of {unit}, not {text!r}") from None
        if not (0 < value if above_zero else 0 <= value) or value == float("inf"):
            message = f"must be a finite number of {unit}{bound}, not {text}"
            raise argparse.ArgumentTypeError(message)
        return value

    parse.__name__ = ("positive_" if above_zero else "") + unit.replace(" ", "_")
    return parse


seconds = non_negative("seconds")  # a duration
milliseconds = non_negative("milliseconds")  # a period, a think time
positive_seconds = positive("seconds")  # a measured window, a period between faults


def event_loop(text: str) -> str:
    """An event loop the nodes can run on here (server/event_loop.py)."""
    if text not in LOOPS:
        raise argparse.ArgumentTypeError(f"must be one of {', '.join(LOOPS)}, not {text!r}")
    why = missing(text)
    if why is not None:
        raise argparse.ArgumentTypeError(why)
    return text


def websocket_url(text: str) -> str:
    """A server's address: a ``ws://`` or ``wss://`` URL."""
    try:
        parse_uri(text)
    except (InvalidURI, ValueError) as e:  # a bad port or IPv6 host is a ValueError
        raise argparse.ArgumentTypeError(f"must be a ws:// or wss:// URL: {e}") from None
    return text


def moment(text: str) -> datetime:
    """An ISO date or time; one without a time zone is taken as UTC."""
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO date or time: {text!r}") from None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


PASSWORD_VARIABLE = "TAROT_PASSWORD"
RATED_NEEDS_ACCOUNT = "rated quick play needs --account NAME (a guest plays casual)"


def account_of(name: str | None) -> tuple[str, str] | None:
    """``--account NAME``'s name and password: the password from ``TAROT_PASSWORD``, else
    asked on the terminal (never an argument: ``ps`` shows those to every user);
    ``ValueError`` when neither can give it."""
    import getpass
    import os
    import sys

    if name is None:
        return None
    password = os.environ.get(PASSWORD_VARIABLE)
    if password is None:
        if not sys.stdin.isatty():
            raise ValueError(f"--account {name}: set {PASSWORD_VARIABLE} to its password")
        password = getpass.getpass(f"Password of {name}: ")
    return name, password
