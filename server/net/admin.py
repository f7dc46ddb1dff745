"""The admin API (docs/DEPLOY.md, "Admin API"): an operator lists and inspects tables
(never a hand), closes a table, disconnects or bans a player or an address for a time,
announces a maintenance (a message to every connection; new tables refused) and drains
the node. Every request needs ``Authorization: Bearer TOKEN`` (``--admin-token``); every
action is logged and counted (``tarot_admin_actions_total{action}``).

    GET  /admin/tables?limit=N&after=CURSOR   GET /admin/tables/ID   POST /admin/tables/ID/close
    POST /admin/disconnect {player|address}
    GET  /admin/bans    POST /admin/bans {player|address, seconds}    POST /admin/unban {...}
    GET  /admin/reports?limit=N&before=ID   (reported chat messages, newest first)
    POST /admin/announce {message, maintenance: true|false}      POST /admin/drain
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import logging
import re
from collections.abc import Callable, Collection
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, urlsplit

from protocol import models as m
from protocol.errors import BadName
from protocol.names import PLAYER_NAME_MAX, clean_name
from server.node.node import Node
from server.store import lobby_index as li
from server.store.base import StoreError, unavailable
from server.store.shared import Decisions
from server.table import closing
from server.table.data import TableData
from server.table.refusals import TableError

from .connection import Connection

log = logging.getLogger("tarot.admin")
MAX_BAN_SECONDS = 365 * 24 * 3600
MAX_MESSAGE = 500  # an announcement's characters
# The fields each action's body may have: a misspelt one ("adress") is refused, not ignored.
FIELDS = {
    "/admin/disconnect": {"player", "address"},
    "/admin/bans": {"player", "address", "seconds"},
    "/admin/unban": {"player", "address"},
    "/admin/announce": {"message", "maintenance"},
}
TABLES_PAGE = 100  # tables a page of GET /admin/tables holds unless ?limit= says
REPORTS_PAGE = 50  # reports a page of GET /admin/reports holds unless ?limit= says
MAX_PAGE = 1000  # either page's ?limit= at most
Answer = tuple[int, Any]
Query = dict[str, list[str]]  # parse_qs's


class Admin:
    def __init__(
        self,
        node: Node,
        connections: Callable[[], Collection[Connection]],
        drain: Callable[[], None],
    ) -> None:
        self.node = node
        self.connections = connections
        self.drain = drain

    async def handle(self, method: str, path: str, headers: dict[str, str], body: Any) -> Answer:
        token = self.node.settings.admin_token or ""
        given = headers.get("authorization", "")
        if not token or not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            return HTTPStatus.UNAUTHORIZED, {"error": "a valid admin token is needed"}
        body = body if isinstance(body, dict) else {}
        try:
            return await self._route(method, path, body)
        except TableError as e:
            return HTTPStatus.CONFLICT, {"error": e.code, "message": str(e)}
        except StoreError as e:
            failed = unavailable(e)
            return HTTPStatus.SERVICE_UNAVAILABLE, {"error": failed.code, "message": str(failed)}
        except (TypeError, ValueError) as e:
            return HTTPStatus.BAD_REQUEST, {"error": str(e)}

    async def _route(self, method: str, target: str, body: dict[str, Any]) -> Answer:
        parts = urlsplit(target)
        path, query = parts.path.rstrip("/"), parse_qs(parts.query)
        one = re.fullmatch(r"/admin/tables/([A-Za-z0-9_-]{1,64})(/close)?", path)
        found: Answer | None = None
        if method == "GET":
            found = await self._read(path, query, one[1] if one and not one[2] else None)
        elif method == "POST":
            found = await self._act(path, body, one[1] if one and one[2] else None)
        return found or (HTTPStatus.NOT_FOUND, {"error": f"no {method} {path}"})

    async def _read(self, path: str, query: Query, table: str | None) -> Answer | None:
        match path:
            case "/admin/tables":
                return HTTPStatus.OK, await self._tables(query)
            case _ if table:
                return HTTPStatus.OK, inspect((await self.node.runtime(table)).data)
            case "/admin/reports":
                return await self._reports(query)
            case "/admin/bans":
                return HTTPStatus.OK, await self.node.moderation.bans()
        return None

    async def _act(self, path: str, body: dict[str, Any], closed: str | None) -> Answer | None:
        unknown = sorted(set(body) - FIELDS.get(path, set(body)))
        if unknown:
            raise ValueError(f"unknown field {unknown[0][:40]!r} (known: {sorted(FIELDS[path])})")
        match path:
            case _ if closed:
                return await self._close(closed)
            case "/admin/disconnect":
                return HTTPStatus.OK, {"disconnected": self._disconnect(*_who(body), "admin")}
            case "/admin/bans":
                return HTTPStatus.OK, await self._ban(body)
            case "/admin/unban":
                player, address = _who(body)
                found = await self.node.moderation.unban(player=player, address=address)
                self._done("unban", "unbanned %r", player or address)
                return HTTPStatus.OK, {"unbanned": found}
            case "/admin/announce":
                return HTTPStatus.OK, await self._announce(body)
            case "/admin/drain":
                self._done("drain", "draining the node")
                self.drain()
                return HTTPStatus.ACCEPTED, {"draining": True}
        return None

    def _done(self, action: str, said: str, *args: object, table: str | None = None) -> None:
        extra = {"action": action} | ({"table": table} if table else {})
        log.info("admin: " + said, *args, extra=extra)
        self.node.metrics.admin_actions.labels(action=action).inc()

    async def _tables(self, query: Query) -> dict[str, Any]:
        """One page of the tables not finished, private ones too, oldest first: read from
        the store's ``live`` list in O(page), never every table (50,000 open tables had
        made a listing of them all pass the store's time-out)."""
        limit = _page_size(query, TABLES_PAGE)
        try:
            after = li.member_of_cursor(query["after"][-1]) if "after" in query else ""
        except TableError as e:
            raise ValueError(str(e)) from e
        store = self.node.store
        entries = await store.lobby_page(li.LIVE, after, limit)
        found = await asyncio.gather(*(self._data(li.table_of(e)) for e, _ in entries))
        return {
            "tables": [inspect(data) for data in found if data is not None],
            "next": li.cursor_of(entries[-1][0]) if len(entries) == limit else None,
            "live": await store.lobby_count(li.LIVE),
        }

    async def _reports(self, query: Query) -> Answer:
        """A page of the reported chat messages, newest first, each with the messages before
        it: what ``tarot reports`` reads from the database, from any node that keeps it."""
        limit = _page_size(query, REPORTS_PAGE)
        before = _number(query, "before", 0) or None
        archive = self.node.archive
        if archive is None or archive.engine is None:
            return HTTPStatus.NOT_FOUND, {"error": "this node keeps no history"}
        from server.history import HistoryError, stored_reports  # SQLAlchemy: with a history

        try:
            found = await stored_reports(archive.engine, limit=limit, before=before)
        except HistoryError as e:
            return HTTPStatus.SERVICE_UNAVAILABLE, {"error": e.code, "message": str(e)}
        return HTTPStatus.OK, {
            "reports": [stored.as_dict() for stored in found],
            "next": found[-1].id if len(found) == limit else None,
        }

    async def _data(self, table_id: str) -> TableData | None:
        runtime = self.node.runtimes.get(table_id)  # this node's copy is the freshest
        return runtime.data if runtime is not None else await self.node.store.load(table_id)

    async def _close(self, table_id: str) -> Answer:
        runtime = await self.node.runtime(table_id)
        await runtime.transact(closing.close)
        self._done("close_table", "closed table %s", table_id, table=table_id)
        return HTTPStatus.OK, inspect(runtime.data)

    def _disconnect(self, player: str | None, address: str | None, why: str) -> int:
        gone = disconnect(self.connections(), player, address, why)
        if why == "admin":
            self._done(
                "disconnect", "disconnected %r (%d connections)", player or address, len(gone)
            )
        return len(gone)

    async def _ban(self, body: dict[str, Any]) -> dict[str, Any]:
        player, address = _who(body)
        seconds = body.get("seconds")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise ValueError("seconds: how long the ban lasts, a number")
        if not 1 <= seconds <= MAX_BAN_SECONDS:
            raise ValueError(f"seconds must be 1-{MAX_BAN_SECONDS}")
        until = await self.node.moderation.ban(player=player, address=address, seconds=seconds)
        closed = self._disconnect(player, address, "banned")
        self._done("ban", "banned %r for %d s", player or address, seconds)
        return {"until": until, "disconnected": closed}

    async def _announce(self, body: dict[str, Any]) -> dict[str, Any]:
        message = _shown(body.get("message"), "message", MAX_MESSAGE)
        maintenance = body.get("maintenance", True)
        if not isinstance(maintenance, bool):  # the string "false" was truthy: maintenance on
            raise ValueError(f"maintenance: true or false, not {maintenance!r:.40}")
        await self.node.moderation.announce(message if maintenance else None)
        self.node.metrics.maintenance.set(1 if maintenance else 0)
        reached = announce(self.connections(), message)
        self._done("announce", "announced %r to %d connections", message, len(reached))
        return {"reached": len(reached), "maintenance": bool(maintenance)}


def announce(connections: Collection[Connection], message: str) -> list[Connection]:
    """Send the announcement to every connection; those reached."""
    notice = m.Error(code="maintenance", message=message)
    reached = list(connections)
    for connection in reached:
        connection.send(notice)
    return reached


_closing: set[asyncio.Task[None]] = set()  # the loop keeps only a weak reference to a task


def disconnect(
    connections: Collection[Connection], player: str | None, address: str | None, why: str
) -> list[Connection]:
    """Say ``bye`` to the connections of ``player`` or from ``address``, and close them."""
    gone = [c for c in connections if _is(c, player, address)]
    bye = m.Bye(reason=why, message="the server's operator closed this connection")
    for connection in gone:
        connection.send(bye)
        # After the bye (the outbox writes it at the end of this loop turn).
        closing_task = asyncio.get_running_loop().create_task(connection.ws.close(1008, why))
        _closing.add(closing_task)
        closing_task.add_done_callback(_closing.discard)
    return gone


def news(connections: Collection[Connection], before: Decisions, after: Decisions) -> None:
    """Another node's decisions, for this node's connections: a new announcement is
    sent, the players and addresses newly banned are disconnected."""
    if after.maintenance is not None and after.maintenance != before.maintenance:
        announce(connections, after.maintenance)
    for key in after.bans["player"].keys() - before.bans["player"].keys():
        disconnect(connections, key, None, "banned")
    for key in after.bans["address"].keys() - before.bans["address"].keys():
        disconnect(connections, None, key, "banned")


def _page_size(query: Query, default: int) -> int:
    """``?limit=``: how many a page holds, 1 to ``MAX_PAGE``."""
    limit = _number(query, "limit", default)
    if not 1 <= limit <= MAX_PAGE:
        raise ValueError(f"limit must be 1 to {MAX_PAGE}")
    return limit


def _number(query: Query, name: str, default: int) -> int:
    given = query.get(name)
    if not given:
        return default
    if not re.fullmatch(r"[0-9]{1,9}", given[-1]):
        raise ValueError(f"{name} must be a whole number")
    return int(given[-1])


def _who(body: dict[str, Any]) -> tuple[str | None, str | None]:
    """The player (a name by the players' own rules, as seated) and the address (an IP
    address, in the form connections have) a body names; at least one."""
    player, address = body.get("player"), body.get("address")
    if player is None and address is None:
        raise ValueError("name a player or an address")
    if player is not None:
        player = _shown(player, "player", PLAYER_NAME_MAX)
    if address is not None:
        try:
            address = str(ipaddress.ip_address(address if isinstance(address, str) else ""))
        except ValueError:
            raise ValueError(f"address: an IP address, not {address!r:.60}") from None
    return player, address


def _shown(text: object, what: str, most: int) -> str:
    """A text an operator gives that players see and the log keeps: the names' rules (no
    control or invisible character: protocol/names.py), 1 to ``most`` characters."""
    if not isinstance(text, str):
        raise ValueError(f"{what}: a text, not {text!r:.40}")
    try:
        cleaned = clean_name(text, most)
    except BadName as e:
        raise ValueError(f"{what}: {str(e).replace('the name', 'it')}") from None
    if not cleaned:
        raise ValueError(f"{what}: it is empty")
    return cleaned


def _is(connection: Connection, player: str | None, address: str | None) -> bool:
    if address is not None and connection.address == address:
        return True
    runtime, seat = connection.table, connection.seat
    if player is None or runtime is None or seat is None:
        return False
    return runtime.data.seats[seat].name.casefold() == player.casefold()


def inspect(data: Any) -> dict[str, Any]:
    """A table as an operator sees it: never a hand, a seed or a token."""
    return {
        "table_id": data.table_id,
        "name": data.options.name,
        "status": data.status,
        "phase": data.phase,
        "deal_number": data.deal.number if data.deal else 0,
        "created_ms": data.created_ms,
        "version": data.version,
        "totals": list(data.totals),
        "seats": [
            {
                "name": s.name,
                "occupant": s.occupant,
                "away": s.dropped_at_ms is not None,
                "node": s.node,
                "account_id": s.account_id,
            }
            for s in data.seats
        ],
    }
