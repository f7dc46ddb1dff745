"""The WebSocket URL that names a table, so that a balancer sends a table's seats and
spectators to one node (docs/DEPLOY.md, "Routing"): ``ws://host/`` and table ``Ab12`` ->
``ws://host/t/Ab12``. The server serves any table on any path; the path is for the
balancer's hash."""

from __future__ import annotations

from urllib.parse import quote, urlsplit, urlunsplit


def table_url(url: str, table_id: str | None) -> str:
    """``url`` with ``/t/TABLE`` appended to its path (a path already naming a table is
    replaced); ``url`` itself when ``table_id`` is None."""
    if not table_id:
        return url
    parts = urlsplit(url)
    path = parts.path or "/"
    at = path.find("/t/")
    if at >= 0:
        path = path[: at + 1]
    if not path.endswith("/"):
        path += "/"
    return urlunsplit(parts._replace(path=f"{path}t/{quote(table_id, safe='')}"))
