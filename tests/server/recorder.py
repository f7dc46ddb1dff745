"""A local connection for runtime-level tests: it keeps every frame a table sends it."""

from __future__ import annotations

import json
from typing import Any

from protocol.codecs import JSON


class Recorder:
    """A ``table.Subscriber`` (a seat, or a spectator with ``seat`` None) that records."""

    def __init__(self, seat: int | None, version: int = 1) -> None:
        self.codec = JSON
        self.version = version  # 2: folded ``events`` frames (PROTOCOL.md section 3)
        self.seat = seat
        self.session = 1
        self.last_seq = 0
        self.turn_sent: tuple[int, int | None] = (-1, None)
        self.frames: list[dict[str, Any]] = []

    def send_frame(self, frame: str | bytes) -> None:
        self.frames.append(json.loads(frame))

    def replaced(self) -> None:
        raise AssertionError("not replaced in this test")

    def lost(self, table_id: str) -> None:
        raise AssertionError("no table is lost in this test")

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == kind]
