"""Argument types shared by the subcommands.

A bad value becomes argparse's usage error (exit status 2, one line naming the
flag), before anything starts: never a traceback from deep inside a client.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import UTC, datetime

from websockets.exceptions import InvalidURI
from websockets.uri import parse_uri

from server.event_loop import LOOPS, missing


def at_least(low: int) -> Callable[[str], int]:
    """An integer no smaller than ``low``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    parse.__name__ = f"at_least_{low}"
    return parse


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
