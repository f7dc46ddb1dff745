"""Logging set-up: plain text, or one JSON object per line (``--log-format json``); the
node's start-up lines.

What a client causes (a reset connection, a handshake that never ends, the
file limit reached under a flood of them) is the network's noise, not the
server's bug: it is logged in one line, without its traceback, and at most
``ClientNoise.burst`` times a minute for each kind; the next line after a
quiet spell says how many were left out. An attacker cannot fill the disk.
"""

from __future__ import annotations

import json
import logging
import sys
import time

# The loggers that speak of the peers (asyncio's transport and accept errors,
# websockets' handshakes and connections); tarot's own keep their tracebacks.
CLIENT_LOGGERS = ("asyncio", "websockets")
# Libraries whose INFO lines are their own business: Alembic's (a dozen at each start:
# its plugins, its context, each revision run); ``migrate`` says in one line what it did.
QUIET_LOGGERS = ("websockets", "alembic")
log = logging.getLogger("tarot.server")


class ClientNoise(logging.Filter):
    """One line per client-caused record, ``burst`` of each kind per ``period`` seconds."""

    def __init__(self, burst: int = 10, period: float = 60.0) -> None:
        super().__init__()
        self.burst, self.period = burst, period
        self._windows: dict[tuple[str, object], tuple[float, int, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        client = record.name.split(".")[0] in CLIENT_LOGGERS
        if client and record.exc_info:
            error = record.exc_info[1]
            record.msg = f"{record.getMessage().splitlines()[0]}: {type(error).__name__}: {error}"
            record.args, record.exc_info, record.exc_text = None, None, None
        key = (record.name, record.msg if not client else str(record.msg).split(":")[0])
        now = time.monotonic()
        start, shown, hidden = self._windows.get(key, (now, 0, 0))
        if now - start >= self.period:
            if hidden:
                record.msg = f"{record.getMessage()} ({hidden} similar lines left out)"
                record.args = None
            start, shown, hidden = now, 0, 0
        if shown >= self.burst:
            self._windows[key] = (start, shown, hidden + 1)
            return False
        self._windows[key] = (start, shown + 1, hidden)
        if len(self._windows) > 10_000:  # bounded however varied the messages
            self._windows.clear()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per record, with ``table`` and ``seat`` when the record has them."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in ("table", "seat", "node", "address", "action"):
            if hasattr(record, key):
                entry[key] = getattr(record, key)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry)


def setup_logging(log_format: str, level: int = logging.INFO, node: str | None = None) -> None:
    """The root logger's one handler; ``node`` names this node in every JSON record."""
    handler = logging.StreamHandler()
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(ClientNoise())
    handler.addFilter(TableField())
    if node is not None:
        handler.addFilter(NodeName(node))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


class TableField(logging.Filter):
    """A record about a table (its format says ``table %s``) names it in the field ``table``
    too, so that a JSON log is searched by table without parsing messages."""

    def filter(self, record: logging.LogRecord) -> bool:
        if hasattr(record, "table") or not isinstance(record.msg, str):
            return True
        at = record.msg.find("table %s")
        if at < 0 or not isinstance(record.args, tuple):
            return True
        index = record.msg.count("%s", 0, at) + record.msg.count("%d", 0, at)
        if index < len(record.args):
            record.table = str(record.args[index])
        return True


class NodeName(logging.Filter):
    """Every record says which node wrote it (``--node-id``), unless it names one itself."""

    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "node"):
            record.node = self.node
        return True


def fatal(message: str, status: int, log_format: str | None) -> int:
    """Why the node cannot start, in one line on standard error (a JSON record in a JSON
    log, so that the stream stays JSON), and the exit status to return."""
    if log_format == "json":
        entry = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + ".000Z",
            "level": "critical",
            "logger": "tarot.server",
            "message": message,
        }
        print(json.dumps(entry), file=sys.stderr, flush=True)
    else:
        print(message, file=sys.stderr, flush=True)
    return status


def announce_start(
    url: str, store: str, history: str, history_note: str | None, log_format: str
) -> None:
    """Where the node listens and what it keeps, said once.

    Standard output has it, for the person at the terminal and for the scripts
    that start a node (``cli/local_servers.py`` reads the port there). A JSON
    log has it as a record too, for whoever reads the log; a text log shares the
    person's terminal, where it would say it twice.
    """
    first = f"tarot server on {url}  (Ctrl-C to stop)"
    if log_format == "json":  # a collector that merges the streams reads JSON only
        said = {"message": first, "url": url, "store": store, "history": history}
        print(json.dumps(said), flush=True)
        note = f" ({history_note})" if history_note else ""
        log.info("serving on %s (store: %s; history: %s%s)", url, store, history, note)
        return
    lines = [first, f"  store: {store}", f"  history: {history}"]
    if history_note is not None:
        lines.append(f"           ({history_note})")
    print("\n".join(lines), flush=True)
