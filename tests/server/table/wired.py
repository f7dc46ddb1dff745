"""A change's stored event as the wire model a reader gets (tests look at those)."""

from __future__ import annotations

from typing import Any

from protocol import models as m
from protocol.frames import wire_event


def wired(stored: dict[str, Any]) -> m.EventModel:
    return m.EVENTS.validate_python(wire_event(stored))
