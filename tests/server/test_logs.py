"""``--log-format json``: one JSON object per line, with the table and seat a record names."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator

import pytest

from server.logs import JsonFormatter, setup_logging


def test_a_record_is_one_json_line_with_its_table_seat_and_exception() -> None:
    try:
        raise ValueError("the deck is short")
    except ValueError:
        record = logging.getLogger("tarot.table").makeRecord(
            "tarot.table",
            logging.WARNING,
            __file__,
            1,
            "table %s: %s",
            ("AbC123", "resyncing"),
            sys.exc_info(),
            extra={"table": "AbC123", "seat": 2},
        )
    record.created, record.msecs = 1_795_964_727.3, 300.0
    line = JsonFormatter().format(record)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["ts"] == "2026-11-29T15:05:27.300Z"  # date -u -d @1795964727
    assert (entry["level"], entry["logger"]) == ("warning", "tarot.table")
    assert entry["message"] == "table AbC123: resyncing"
    assert (entry["table"], entry["seat"]) == ("AbC123", 2)
    assert "node" not in entry
    assert entry["exception"].startswith("Traceback") and "the deck is short" in entry["exception"]


@pytest.fixture
def root_logging() -> Iterator[None]:
    """setup_logging replaces the root logger's handlers: put pytest's back after."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    websockets_level = logging.getLogger("websockets").level
    yield
    root.handlers[:], root.level = handlers, level
    logging.getLogger("websockets").setLevel(websockets_level)


@pytest.mark.usefixtures("root_logging")
@pytest.mark.parametrize("log_format", ["json", "text"])
def test_setup_installs_one_handler_in_the_chosen_format(
    log_format: str, capsys: pytest.CaptureFixture[str]
) -> None:
    setup_logging(log_format)
    logging.getLogger("tarot.node").info("listening on %s", "127.0.0.1:8765")
    logging.getLogger("websockets.server").info("chatter below WARNING is dropped")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    if log_format == "json":
        assert json.loads(lines[0])["message"] == "listening on 127.0.0.1:8765"
    else:
        assert lines[0].endswith("INFO tarot.node: listening on 127.0.0.1:8765")
