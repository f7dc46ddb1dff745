"""A "Next deal" lost with its connection (found by tests/balancer's kill -9 restart, for
the bots): the page said "Waiting for the others" while the server, never told, waited its
whole next_deal_seconds (30 s) for this player. The page says it again once resumed.

The page's WebSocket goes through Playwright's route: it swallows the first ``next_deal``
and closes the page's side only, as a node killed under it would (the server still sees
the seat connected: nothing marks it away)."""

from __future__ import annotations

import asyncio
import re

import pytest
from playwright.async_api import WebSocketRoute

from .conftest import NewPlayer


@pytest.mark.timeout(180)
async def test_a_next_deal_lost_with_the_connection_is_said_again_once_resumed(
    new_player: NewPlayer,
) -> None:
    me = await new_player(query="speed=0")
    routes: list[WebSocketRoute] = []
    swallowed: list[str | bytes] = []
    closing: set[asyncio.Task[None]] = set()

    def route(ws: WebSocketRoute) -> None:
        routes.append(ws)
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            data = message.encode() if isinstance(message, str) else message
            if not swallowed and b"next_deal" in data:
                swallowed.append(message)
                task = asyncio.ensure_future(ws.close())  # the page's side only
                closing.add(task)
                task.add_done_callback(closing.discard)
                return
            server.send(message)

        ws.on_message(to_server)

    await me.page.route_web_socket(re.compile(r"^wss?://"), route)
    await me.open()
    await me.page.fill("#create-form [name=deals]", "2")
    await me.page.click("#create-form [type=submit]")
    await me.page.wait_for_selector("#centre .waiting-msg")
    await me.page.click("#prompt [data-action=start]")  # three AI: the table waits for me
    await me.play_until("sheet", timeout=120)
    await me.page.click(".sheet [data-action=next-deal]")
    # Well within the 30 s the table would otherwise wait: deal 2 is dealt.
    await me.page.wait_for_function(
        "() => window.cardavia.app.table.deal && window.cardavia.app.table.deal.number === 2",
        timeout=15000,
    )
    assert len(swallowed) == 1 and len(routes) >= 2  # lost, then a new connection
