"""The JSON API's duplicate events (docs/API.md, "Duplicate events"): anonymous reads.

The API knows no viewer: it shows what anyone may see (``duplicate_reads`` decides),
so an open event shows its definition and nothing else, and its deals' records are
refused (``/api/deals/...``: ``results_hidden``, 403). Once the event is closed and
scored: the standings, every result of each deal (linked to its stored deal), each
entrant's results. Shapes are the protocol's (``EventInfo``, ``StandingInfo``,
``ResultInfo``: PROTOCOL.md section 18).
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncEngine

from protocol import models as m
from server.history import deal_results, entry_results, event_standings
from server.history.duplicate_listing import listed_event, listed_events
from server.history.duplicate_rating import duplicate_ratings_board

from .duplicate_requests import event_info, result_info
from .http import bad_request

Json = dict[str, Any]
STANDINGS_MOST = 500
DIGITS = re.compile(r"^[0-9]{1,9}$")


class Paging(Protocol):
    def page(self, most: int) -> tuple[int, int]: ...


def _number(text: str, what: str) -> int:
    """A path's number: a malformed one is a bad request (400), as every route's is; one
    the event has not is ``NoSuchEvent`` (404), from the history."""
    if not DIGITS.match(text):
        raise bad_request(f"{what} is a whole number from 0, not {text[:20]!r}")
    return int(text)


async def events(engine: AsyncEngine, _parts: list[str], _query: Paging) -> Json:
    """``/api/duplicate``: the events open, to come, or closed in the last days."""
    listed = await listed_events(engine, None)
    return {"events": [event_info(e).model_dump(mode="json") for e in listed]}


async def ratings(engine: AsyncEngine, _parts: list[str], query: Paging) -> Json:
    """``/api/duplicate/ratings``: the duplicate ratings, best first (docs/RATINGS.md)."""
    limit, offset = query.page(100)
    found = await duplicate_ratings_board(engine, limit + 1, offset)
    shown = [
        {"id": r.account_id, "name": r.name, "rating": round(r.rating, 1), "events": r.events}
        for r in found[:limit]
    ]
    return {"ratings": shown, "next": offset + limit if len(found) > limit else None}


async def standings(engine: AsyncEngine, parts: list[str], query: Paging) -> Json:
    """``/api/duplicate/{id}``: the event, and its standings once closed and scored."""
    event_id = _number(parts[0], "an event id")
    limit, offset = query.page(STANDINGS_MOST)  # checked whether standings show or not
    listed = await listed_event(engine, event_id, None)
    info = event_info(listed)
    body: Json = {"event": info.model_dump(mode="json"), "standings": None, "next": None}
    if info.phase == "closed" and info.scored:
        found = await event_standings(engine, event_id, None, limit=limit + 1, offset=offset)
        body["standings"] = [
            m.StandingInfo(
                rank=s.rank,
                entry_id=s.entry_id,
                name=s.name,
                ai_level=s.ai_level,
                mark=s.mark,
                played=s.played,
            ).model_dump(mode="json")
            for s in found[:limit]
        ]
        body["next"] = offset + limit if len(found) > limit else None
    return body


async def deal(engine: AsyncEngine, parts: list[str], _query: Paging) -> Json:
    """``/api/duplicate/{id}/deals/{k}``: every result of deal ``k``, once the event closed."""
    event_id, index = _number(parts[0], "an event id"), _number(parts[1], "a deal")
    found = await deal_results(engine, event_id, index, None)
    shown = [result_info(r).model_dump(mode="json") for r in found]
    return {"event_id": event_id, "deal": index, "results": shown}


async def entry(engine: AsyncEngine, parts: list[str], _query: Paging) -> Json:
    """``/api/duplicate/{id}/entries/{e}``: one entrant's results, once the event closed."""
    event_id, entry_id = _number(parts[0], "an event id"), _number(parts[1], "an entry")
    found = await entry_results(engine, event_id, entry_id, None)
    shown = [result_info(r).model_dump(mode="json") for r in found]
    return {"event_id": event_id, "entry": entry_id, "results": shown}
