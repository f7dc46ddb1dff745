"""The history's read-only JSON API over HTTP GET (docs/API.md): routes, parameters, answers.

``/api/...`` on the node's port. Every answer is JSON; a bad path or parameter
is a 400 or 404 with ``{"error": {"code", "message"}}`` and reads nothing; the
database down is a 503 ``database_unavailable``. Lists are pages: ``limit``
(1 to the route's maximum) and ``offset``, and the answer's ``next`` is the
offset of the next page (null on the last). Imported by a node that keeps a
history only (SQLAlchemy).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from sqlalchemy.ext.asyncio import AsyncEngine
from websockets.http11 import Response

from server.history import BadAccountName, HistoryError, check_record_visible, queries
from server.history.player_tables import player_tables as tables_of

from . import api_duplicate, http
from .http import ApiError, bad_request, not_found

OFFSET_MAX = 1_000_000
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
NUMBER = re.compile(r"^[0-9]{1,9}$")
Json = dict[str, Any]
# The history's refusals that are not a bad request.
HISTORY_STATUS = {
    "database_unavailable": HTTPStatus.SERVICE_UNAVAILABLE,
    "results_hidden": HTTPStatus.FORBIDDEN,
    "no_such_event": HTTPStatus.NOT_FOUND,
    "not_entered": HTTPStatus.NOT_FOUND,
}


def json_response(status: HTTPStatus, body: Json) -> Response:
    data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    return http.response(status, data, "application/json; charset=utf-8")


def refusal(status: HTTPStatus, code: str, message: str) -> Response:
    return http.json_error(status, code, message)


@dataclass(frozen=True, slots=True)
class Query:
    """A request's parameters: each known to its route, each given once."""

    values: dict[str, str]

    @classmethod
    def of(cls, text: str, allowed: tuple[str, ...]) -> Query:
        try:
            pairs = parse_qsl(text, keep_blank_values=True, strict_parsing=bool(text))
        except ValueError:
            raise bad_request(f"the query {text[:80]!r} cannot be read") from None
        values: dict[str, str] = {}
        for name, value in pairs:
            if name not in allowed:
                known = ", ".join(allowed) or "none"
                raise bad_request(f"unknown parameter {name[:40]!r} (known: {known})")
            if name in values:
                raise bad_request(f"parameter {name!r} is given twice")
            values[name] = value
        return cls(values)

    def number(self, name: str, default: int, low: int, high: int) -> int:
        text = self.values.get(name)
        if text is None:
            return default
        if not NUMBER.match(text) or not low <= int(text) <= high:
            raise bad_request(
                f"{name} must be a whole number from {low} to {high}, not {text[:20]!r}"
            )
        return int(text)

    def page(self, most: int) -> tuple[int, int]:
        """(limit, offset); the limit defaults to ``min(50, most)``."""
        return self.number("limit", min(50, most), 1, most), self.number("offset", 0, 0, OFFSET_MAX)


def page(name: str, items: list[Json], limit: int, offset: int) -> Json:
    """A page of ``items`` (one more than ``limit`` was asked for: it says whether there is
    a next page, and is not shown)."""
    more = len(items) > limit
    return {name: items[:limit], "next": offset + limit if more else None}


Route = Callable[[AsyncEngine, list[str], Query], Awaitable[Json]]


async def leaderboard(engine: AsyncEngine, _parts: list[str], query: Query) -> Json:
    limit, offset = query.page(queries.PAGE_MAX)
    return page("players", await queries.leaderboard(engine, limit + 1, offset), limit, offset)


async def players(engine: AsyncEngine, _parts: list[str], query: Query) -> Json:
    """``/api/players?name=NAME``: the profile of the account of that name."""
    name = query.values.get("name")
    if name is None:
        raise bad_request("give the player's name: /api/players?name=NAME")
    try:
        account_id = await queries.account_id_of(engine, name)
    except BadAccountName as e:
        raise bad_request(f"not a display name: {e.message}") from e
    if account_id is None:
        raise not_found(f"no player named {name[:60]!r}")
    return await _profile(engine, account_id)


def account_of(parts: list[str]) -> int:
    if not NUMBER.match(parts[0]):
        raise bad_request(f"a player is named by an account id (a number), not {parts[0][:40]!r}")
    return int(parts[0])


async def _profile(engine: AsyncEngine, account_id: int) -> Json:
    found = await queries.profile(engine, account_id)
    if found is None:
        raise not_found(f"no player {account_id}")
    return found


async def player(engine: AsyncEngine, parts: list[str], _query: Query) -> Json:
    return await _profile(engine, account_of(parts))


async def player_deals(engine: AsyncEngine, parts: list[str], query: Query) -> Json:
    account_id = account_of(parts)
    limit, offset = query.page(queries.PAGE_MAX)
    await _profile_exists(engine, account_id)
    found = await queries.player_deals(engine, account_id, limit + 1, offset)
    return {"id": account_id, **page("deals", found, limit, offset)}


async def player_tables(engine: AsyncEngine, parts: list[str], query: Query) -> Json:
    account_id = account_of(parts)
    limit, offset = query.page(queries.PAGE_MAX)
    await _profile_exists(engine, account_id)
    found = await tables_of(engine, account_id, limit + 1, offset)
    return {"id": account_id, **page("tables", found, limit, offset)}


async def player_ratings(engine: AsyncEngine, parts: list[str], query: Query) -> Json:
    account_id = account_of(parts)
    limit, offset = query.page(queries.RATINGS_PAGE_MAX)
    await _profile_exists(engine, account_id)
    found = await queries.rating_history(engine, account_id, limit + 1, offset)
    return {"id": account_id, **page("ratings", found, limit, offset)}


async def _profile_exists(engine: AsyncEngine, account_id: int) -> None:
    if await queries.account_name(engine, account_id) is None:
        raise not_found(f"no player {account_id}")


async def deal(engine: AsyncEngine, parts: list[str], _query: Query) -> Json:
    table_id, number = parts
    if not TABLE_ID.match(table_id):
        raise bad_request(f"not a table id: {table_id[:80]!r}")
    if not NUMBER.match(number):
        raise bad_request(f"a deal number is a whole number from 0, not {number[:20]!r}")
    found = await queries.stored_deal(engine, table_id, int(number))
    if found is None:
        raise not_found(f"no finished deal {number} of table {table_id} is stored")
    # An open event's deal; checked once it is read: a stored deal names its event.
    await check_record_visible(engine, table_id, int(number), None)
    return found


# (path pattern, its parameters, its handler); "*" is one path segment.
ROUTES: tuple[tuple[tuple[str, ...], tuple[str, ...], Route], ...] = (
    (("leaderboard",), ("limit", "offset"), leaderboard),
    (("players",), ("name",), players),
    (("players", "*"), (), player),
    (("players", "*", "deals"), ("limit", "offset"), player_deals),
    (("players", "*", "tables"), ("limit", "offset"), player_tables),
    (("players", "*", "ratings"), ("limit", "offset"), player_ratings),
    (("deals", "*", "*"), (), deal),
    (("duplicate",), (), api_duplicate.events),
    (("duplicate", "ratings"), ("limit", "offset"), api_duplicate.ratings),
    (("duplicate", "*"), ("limit", "offset"), api_duplicate.standings),
    (("duplicate", "*", "deals", "*"), (), api_duplicate.deal),
    (("duplicate", "*", "entries", "*"), (), api_duplicate.entry),
)


def route(segments: list[str]) -> tuple[tuple[str, ...], Route, list[str]]:
    for pattern, allowed, handler in ROUTES:
        if len(pattern) == len(segments) and all(
            p in ("*", s) for p, s in zip(pattern, segments, strict=True)
        ):
            wild = [s for p, s in zip(pattern, segments, strict=True) if p == "*"]
            return allowed, handler, wild
    raise not_found("no such API path: see docs/API.md")


async def respond(engine: AsyncEngine | None, target: str) -> Response:
    """The answer to ``GET target`` (a path under ``/api/``, with its query)."""
    try:
        if engine is None:
            raise not_found("this server keeps no history (it has no database)")
        parts = urlsplit(target)
        segments = [unquote(s, errors="strict") for s in parts.path.split("/")[2:]]
        allowed, handler, wild = route(segments)
        body = await handler(engine, wild, Query.of(parts.query, allowed))
    except ApiError as e:
        return refusal(e.status, e.code, e.message)
    except UnicodeDecodeError:
        return refusal(HTTPStatus.BAD_REQUEST, "bad_request", "the path is not UTF-8")
    except HistoryError as e:
        status = HISTORY_STATUS.get(e.code, HTTPStatus.BAD_REQUEST)
        return refusal(status, e.code, e.message)
    return json_response(HTTPStatus.OK, body)
