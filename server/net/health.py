"""Health checks: ``/livez`` (the process answers) and ``/readyz`` (it can take players).

An orchestrator restarts a node whose liveness fails, and a load balancer
sends no new players to a node that is not ready. One ``/healthz`` did both
and answered 503 while Redis was down: every node was restarted during a
Redis blip, which helped nothing. ``/healthz`` stays, as ``/readyz``.
Any Host may ask them (probes name nodes by address); they say one word.
"""

from __future__ import annotations

import asyncio
from http import HTTPStatus

from websockets.http11 import Response

from server.node.node import Node

from . import http

LIVE = "/livez"
READY = "/readyz"
HEALTH_PATHS = frozenset({LIVE, READY, "/healthz"})  # /healthz: /readyz, kept for old probes
STORE_PING_SECONDS = 1.0


async def answer(path: str, node: Node) -> Response:
    """The answer to one of ``HEALTH_PATHS``."""
    if path == LIVE:
        return http.text(HTTPStatus.OK, "ok\n")
    reason = await not_ready(node)
    if reason is None:
        return http.text(HTTPStatus.OK, "ok\n")
    return http.text(HTTPStatus.SERVICE_UNAVAILABLE, f"{reason}\n")


async def not_ready(node: Node) -> str | None:
    """Why this node cannot take players now (None: it can)."""
    if node.draining:
        return "draining"
    if node.lost_data_recently():
        return "store lost data"
    if not await store_answers(node):
        return "unavailable"
    return None


async def store_answers(node: Node) -> bool:
    try:
        return await asyncio.wait_for(node.store.ping(), timeout=STORE_PING_SECONDS)
    except Exception:
        return False
