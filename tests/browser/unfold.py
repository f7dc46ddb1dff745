"""Protocol 2's folded frames as the browser page unfolds them, for the frames a test records."""

from __future__ import annotations

from typing import Any

Message = dict[str, Any]


def unfolded(frame: Message) -> list[Message]:
    """Protocol 2's folded frames as the page's net.js unfolds them (clients/web/unfold.js):
    an ``events`` frame's events, then its ``your_turn``; a snapshot, then its turn."""
    table_id = frame.get("table_id")
    if frame.get("type") == "events":
        out = [{"type": "event", "table_id": table_id, **e} for e in frame["events"]]
        if "your_turn" in frame:
            out.append({"type": "your_turn", "table_id": table_id, **frame["your_turn"]})
        return out
    if frame.get("type") == "snapshot" and "your_turn" in frame:
        turn = {"type": "your_turn", "table_id": table_id, **frame["your_turn"]}
        return [{k: v for k, v in frame.items() if k != "your_turn"}, turn]
    return [frame]
