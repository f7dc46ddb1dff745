"""Issue 25.5: JSON log records name the node and, where one applies, the table, in fields."""

from __future__ import annotations

import json
import logging

from server.logs import JsonFormatter, NodeName, TableField


def formatted(message: str, *args: object, **extra: object) -> dict[str, object]:
    record = logging.LogRecord("tarot.node", logging.INFO, __file__, 1, message, args, None)
    for key, value in extra.items():
        setattr(record, key, value)
    for check in (TableField(), NodeName("node-7")):
        check.filter(record)
    entry: dict[str, object] = json.loads(JsonFormatter().format(record))
    return entry


def test_a_table_named_in_the_message_is_a_field() -> None:
    entry = formatted("table %s: seat %d was held through node %s, gone", "Ab3dE", 2, "n1")
    assert entry["table"] == "Ab3dE" and entry["node"] == "node-7"
    entry = formatted("history: %s not written; table %s waits", "x", "Zz9")
    assert entry["table"] == "Zz9"


def test_a_record_without_a_table_has_none_and_its_own_fields_win() -> None:
    assert "table" not in formatted("shutting down")
    entry = formatted("table %s", "a", table="b", node="other")
    assert (entry["table"], entry["node"]) == ("b", "other")
