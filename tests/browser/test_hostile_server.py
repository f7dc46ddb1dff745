"""Attacks on the page from the network (issue 14.1), each in a real Chromium.

A link ``http://REAL/?server=ws://attacker/`` must neither connect the page to the
attacker without the player's consent nor ever hand it the seat token the real server
issued; and a server the player did agree to (or any server at all) must not be able
to run script in the page's origin through the fields it sends.

The server's Content-Security-Policy (``connect-src 'self'``, server/net/http.py) stops
a page it serves from opening sockets elsewhere at all. These tests turn it off
(``bypass_csp``) to check the page's own defences: the layer that holds wherever the
page is served from, and behind the header when a policy lets other servers in.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.server import Server, ServerConnection, serve

from .conftest import NewPlayer

# Each payload breaks out of a text node, a double- or single-quoted attribute, or
# a style; any that runs sets window.pwned (or leaves an <img>/<script> behind).
HOSTILE = [
    '<img src=x onerror="window.pwned=1">',
    '"><img src=x onerror="window.pwned=2">',
    "'><img src=x onerror='window.pwned=3'>",
    "</span><script>window.pwned=4</script>",
    '" autofocus onfocus="window.pwned=5',
]
X = HOSTILE[0]
Q = HOSTILE[1]


def hostile_seats() -> list[dict[str, Any]]:
    return [
        {"seat": 0, "occupant": "human", "name": Q, "connected": True},
        {"seat": 1, "occupant": "human", "name": HOSTILE[2], "connected": False},
        {"seat": 2, "occupant": "ai", "name": HOSTILE[3], "connected": True},
        {"seat": 3, "occupant": "human", "name": HOSTILE[4], "connected": True},
    ]


def hostile_summary(table_id: str) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "options": {"name": X, "deals": Q, "ai_level": Q, "private": False},
        "seats": hostile_seats(),
        "status": "playing",
        "deal_number": Q,
        "spectators": Q,
        "totals": [Q, X, 0, 0],
        "next_deal_ms": Q,
    }


GOOD_CARDS = ["KS", "T21", "EX", "1H"]
BAD_CARDS = [X, Q, "T21", HOSTILE[2]]


def hostile_view(cards: list[str]) -> dict[str, Any]:
    return {
        "seat": 0,
        "deal_number": Q,
        "dealer": 1,
        "phase": "play",
        "to_act": 0,
        "hand": cards,
        "hand_sizes": [4, 4, 4, 4],
        "bids": [{"seat": 1, "contract": Q}],
        "taker": 1,
        "contract": Q,
        "chien": cards,
        "discard": cards,
        "discard_trumps": cards,
        "chelem": False,
        "poignees": [{"seat": 1, "level": Q, "cards": cards}],
        "trick": {"leader": 1, "cards": cards[:3]},
        "tricks": [{"leader": 2, "cards": cards, "winner": 1}],
        "points": [Q, X],
        "tricks_won": [Q, 0, 1, 0],
        "legal": None,
        "sheet": None,
    }


def hostile_sheet() -> dict[str, Any]:
    return {
        "status": "played",
        "taker": 1,
        "contract": Q,
        "bouts": Q,
        "points": X,
        "target": Q,
        "made": True,
        "multiplier": Q,
        "contract_score": Q,
        "per_defender": Q,
        "bonuses": [
            {"kind": Q, "side": Q, "points": Q, "seat": 1, "detail": Q},
            {"kind": "poignee", "side": HOSTILE[2], "points": X, "seat": 3, "detail": X},
        ],
        "scores": [Q, X, 0, 0],
        "reason": X,
    }


@dataclass
class FakeServer:
    """A WebSocket server that speaks just enough tarot.v2 to seat the page, then sends
    hostile values in every field the page shows; it keeps every frame it received."""

    hostile: bool
    cards: list[str] = field(default_factory=lambda: GOOD_CARDS)
    received: list[dict[str, Any]] = field(default_factory=list)
    connections: int = 0
    server: Server | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        port = self.server.sockets[0].getsockname()[1]
        return f"ws://127.0.0.1:{port}/"

    async def handle(self, ws: ServerConnection) -> None:
        self.connections += 1
        async for raw in ws:
            msg = json.loads(raw)
            self.received.append(msg)
            for answer in self.answers(msg):
                await ws.send(json.dumps(answer))

    def answers(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        kind, re = msg.get("type"), msg.get("id")
        table_id = "evil"
        if kind == "hello":
            return [{"type": "welcome", "protocol": 2, "server": "fake"}]
        if kind == "list_tables":
            tables = [hostile_summary(table_id)] if self.hostile else []
            return [{"type": "tables", "re": re, "tables": tables}]
        if kind == "create_table":
            return [{"type": "table_created", "re": re, "table": hostile_summary(table_id)}]
        if kind == "join":
            joined = {"type": "joined", "re": re, "table_id": table_id, "seat": 0, "token": "t"}
            return [joined, *self.table_frames(table_id)]
        return []

    def table_frames(self, table_id: str) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = [
            {"kind": "seat", "seat": {"seat": 3, "occupant": "human", "name": X}},
            {"kind": "poignee", "seat": 3, "level": Q, "cards": self.cards[:2]},
            {"kind": "card", "seat": 2, "card": self.cards[1]},
            {
                "kind": "trick",
                "number": Q,
                "leader": 1,
                "cards": self.cards,
                "winner": 1,
                "points": [Q, X],
            },
            {"kind": "turn", "seat": 0, "phase": "play", "deadline_ms": Q},
            {"kind": "score", "deal_number": Q, "sheet": hostile_sheet(), "totals": [Q, X, 0, 0]},
            {
                "kind": "between_deals",
                "next_deal_number": Q,
                "deadline_ms": Q,
                "waiting_for": [1, 2, 3],
            },
        ]
        frames: list[dict[str, Any]] = [
            {
                "type": "snapshot",
                "table_id": table_id,
                "seq": 1,
                "table": hostile_summary(table_id),
                "view": hostile_view(self.cards),
            },
            {
                "type": "your_turn",
                "table_id": table_id,
                "seq": 1,
                "deadline_ms": Q,
                "legal": {
                    "seat": 0,
                    "phase": "play",
                    "bids": [Q],
                    "discard": None,
                    "chelem": False,
                    "poignees": [],
                    "cards": self.cards[:2],
                },
            },
        ]
        frames += [
            {"type": "event", "table_id": table_id, "seq": i + 2, "event": e}
            for i, e in enumerate(events)
        ]
        return frames


async def start_fake(hostile: bool, cards: list[str] = GOOD_CARDS) -> FakeServer:
    fake = FakeServer(hostile=hostile, cards=cards)
    fake.server = await serve(fake.handle, "127.0.0.1", 0, subprotocols=["tarot.v2.json"])  # type: ignore[list-item]
    return fake


@pytest.fixture
async def attacker() -> AsyncIterator[FakeServer]:
    fake = await start_fake(hostile=False)
    assert fake.server is not None
    try:
        yield fake
    finally:
        fake.server.close()
        await fake.server.wait_closed()


@pytest.fixture(params=["hostile-text", "hostile-card-codes"])
async def hostile(request: pytest.FixtureRequest) -> AsyncIterator[FakeServer]:
    cards = BAD_CARDS if request.param == "hostile-card-codes" else GOOD_CARDS
    fake = await start_fake(True, cards)
    assert fake.server is not None
    try:
        yield fake
    finally:
        fake.server.close()
        await fake.server.wait_closed()


async def seated(player: Any) -> str:
    """Open the page, start a game against 3 AI; the seat token the real server issued."""
    await player.open()
    await player.page.click("[data-action=quick-start]")
    await player.page.wait_for_selector("#hand .card")
    token = await player.page.evaluate("() => window.cardavia.app.session.token")
    assert token
    return str(token)


@pytest.mark.timeout(90)
async def test_a_link_naming_another_server_neither_connects_nor_gives_it_the_seat(
    new_player: NewPlayer, attacker: FakeServer
) -> None:
    """The attack: the victim holds a seat; a link names the attacker's server."""
    player = await new_player(bypass_csp=True)
    token = await seated(player)
    await player.page.goto(f"{player.url}&server={attacker.url}")
    await asyncio.sleep(1.5)
    assert token not in json.dumps(attacker.received), "the seat token went to the attacker"
    assert attacker.connections == 0, "connected to a server a link named, without asking"
    # The page stays with its own server and resumes the seat there; it asks first.
    await player.page.wait_for_selector("#conn[data-status=online]")
    await player.page.wait_for_selector("#hand .card")
    await player.page.wait_for_selector("[data-action=server-connect]")
    assert attacker.url in await player.text("[data-field=asked-server]")
    # Staying is the default: the question goes, the address loses its ?server=.
    await player.page.click("[data-action=server-stay]")
    assert not await player.visible("[data-action=server-connect]")
    assert "server=" not in player.page.url
    await player.page.reload()
    await player.page.wait_for_selector("#hand .card")
    assert attacker.connections == 0
    assert token not in json.dumps(attacker.received)
    assert player.errors == []


@pytest.mark.timeout(90)
async def test_the_player_may_agree_and_even_then_the_token_stays_with_its_server(
    new_player: NewPlayer, attacker: FakeServer
) -> None:
    player = await new_player(bypass_csp=True)
    token = await seated(player)
    await player.page.goto(f"{player.url}&server={attacker.url}")
    await player.page.wait_for_selector("[data-action=server-connect]", timeout=5000)
    assert attacker.connections == 0
    await player.page.click("[data-action=server-connect]")
    for _ in range(50):
        if any(m.get("type") == "list_tables" for m in attacker.received):
            break
        await asyncio.sleep(0.1)
    kinds = [m.get("type") for m in attacker.received]
    assert "hello" in kinds and "list_tables" in kinds, kinds
    # A reload keeps the player's choice for this tab, and still sends no token.
    await player.page.reload()
    await player.page.wait_for_selector(".hero-fan")
    await asyncio.sleep(1.0)
    assert attacker.connections == 2
    kinds = [m.get("type") for m in attacker.received]
    assert "resume" not in kinds, kinds
    assert token not in json.dumps(attacker.received)
    # Back on its own server (no ?server=), the page resumes the seat it kept.
    await player.page.goto(player.url)
    await player.page.wait_for_selector("#hand .card")
    assert player.errors == []


NOTHING_RAN = """() => ({
    pwned: window.pwned ?? null,
    imgs: document.querySelectorAll('img').length,
    scripts: [...document.querySelectorAll('script')].filter(s => !s.src).length,
    handlers: [...document.querySelectorAll('*')].filter(
        e => [...e.attributes].some(a => a.name.startsWith('on'))).length,
})"""


@pytest.mark.timeout(90)
async def test_hostile_fields_from_a_server_are_shown_as_text_and_never_run(
    new_player: NewPlayer, hostile: FakeServer, artifacts: Path
) -> None:
    """Names, deadlines, bonus kinds and sides, numbers: all text; card codes that are
    none of the 78 are drawn as a card back (and break nothing)."""
    player = await new_player(bypass_csp=True)
    await player.open()
    await player.page.goto(f"{player.url}&server={hostile.url}")
    # The player agrees to play there (a page that does not ask connects anyway).
    await player.click("[data-action=server-connect]")
    # The lobby lists the hostile table; then the page sits at it and shows everything.
    await player.page.wait_for_selector(".table-row")
    await player.page.click("[data-action=quick-start]")
    await player.page.wait_for_function("() => window.pwned || document.querySelector('.seat')")
    await asyncio.sleep(1.5)
    assert [e for e in player.errors if "pageerror" in e] == []
    found = await player.page.evaluate(NOTHING_RAN)
    assert found == {"pwned": None, "imgs": 0, "scripts": 0, "handlers": 0}, found
    await player.page.wait_for_selector(".sheet")
    cards = "codes" if hostile.cards is BAD_CARDS else "text"
    await player.page.screenshot(path=str(artifacts / f"hostile-{cards}-sheet.png"))
    await player.page.click("[data-action=close-sheet]")
    await player.page.hover(".seat")
    await player.page.screenshot(path=str(artifacts / f"hostile-{cards}-table.png"))
    assert await player.page.evaluate(NOTHING_RAN) == found
    body = await player.page.inner_text("body")
    assert "window.pwned=2" in body  # the names are there, as text
    assert [e for e in player.errors if "pageerror" in e] == []
