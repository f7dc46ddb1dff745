"""Every client message has a handler: connection.py's own ``match`` or a feature's
(server/net/feature_requests.py), so no message type falls through unanswered."""

from __future__ import annotations

import typing
from pathlib import Path

from protocol import models as m
from server.net import connection, feature_requests


def client_message_types() -> set[type[m.Model]]:
    return set(typing.get_args(typing.get_args(m.ClientMessage)[0]))


def test_every_client_message_is_answered_by_the_connection_or_a_feature() -> None:
    source = Path(connection.__file__).read_text()
    unanswered = [
        kind.__name__
        for kind in client_message_types()
        if kind not in feature_requests.HANDLERS and f"m.{kind.__name__}" not in source
    ]
    assert unanswered == []


def test_no_message_has_two_handlers() -> None:
    source = Path(connection.__file__).read_text()
    both = [k.__name__ for k in feature_requests.HANDLERS if f"m.{k.__name__}(" in source]
    assert both == []
