"""The rematch panel of the sheet follows the offer (docs/PROTOCOL.md, section 17): the
server refuses a late or changed answer with ``rematch_closed``, so the page offers no
button it would refuse. After this seat accepted: no button, a line saying its seat
waits at the new table. A seat that declined keeps "Rematch" (it may still accept) while
the offer is open. Once the offer is closed (every human answered, the new table
started, the offer timed out, or the server said rematch_closed): no button, a line
saying so. While it is open, the time left is counted down (the event's ``deadline_ms``).
No ``rematch_closed`` error reaches the player. Screenshots in
test-artifacts/rematch-panel-*.png."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import WebSocketRoute

from server.app import App
from server.settings import Settings

from ..deal_seeds import deal_from, ordinary, where
from .conftest import NewPlayer
from .player import Player
from .unfold import Message

BUTTONS = ".sheet [data-action=rematch], .sheet [data-action=rematch-no]"
STATUS = ".sheet [data-field=rematch-status]"
ENDS = ".sheet [data-field=rematch-ends]"


@pytest.fixture
async def server(request: pytest.FixtureRequest) -> AsyncIterator[App]:
    """The node, its rematch offers closing after the seconds the test names (param)."""
    seconds = float(getattr(request, "param", 120.0))
    app = await App.start(Settings(port=0, next_deal_seconds=30, rematch_seconds=seconds))
    try:
        yield app
    finally:
        await app.stop(drain_seconds=0)


class HeldJoined:
    """The page's WebSocket through Playwright's route: once ``armed``, from the server's
    next ``joined`` on, what the server sends waits here until ``release``, so the page
    stays at the old table with its accept sent and told (the ``rematch`` event comes
    before ``joined``)."""

    def __init__(self) -> None:
        self.armed = False
        self.held: list[str | bytes] | None = None
        self.page_side: WebSocketRoute | None = None
        self.errors: list[object] = []

    def route(self, ws: WebSocketRoute) -> None:
        self.page_side = ws
        server = ws.connect_to_server()
        ws.on_message(server.send)

        def to_page(message: str | bytes) -> None:
            sent = json.loads(message) if isinstance(message, str) else {}
            if isinstance(sent, dict) and sent.get("type") == "error":
                self.errors.append(sent)
            if isinstance(sent, dict) and sent.get("type") == "joined" and self.armed:
                self.armed = False
                self.held = []
            if self.held is not None and ws is self.page_side:
                self.held.append(message)
                return
            ws.send(message)

        server.on_message(to_page)

    def release(self) -> None:
        assert self.page_side is not None and self.held is not None
        for message in self.held:
            self.page_side.send(message)
        self.page_side = None  # what comes next goes straight through


async def finished_table(
    new_player: NewPlayer, names: list[str], held: HeldJoined | None = None
) -> tuple[list[Player], str]:
    """A one-deal table of ``names`` (seats 0, 1, ...; the AI in the others) played to
    its sheet. The first page's WebSocket goes through ``held`` when given."""
    players = [await new_player(1366, 768) for _ in names]
    if held is not None:
        await players[0].page.route_web_socket(re.compile(r"^wss?://"), held.route)
    for player, name in zip(players, names, strict=True):
        await player.open()
        await player.page.fill("#player-name", name)
    first = players[0]
    await first.page.fill("#create-form [name=deals]", "1")
    await first.page.click("#create-form [type=submit]")
    await first.page.wait_for_selector("#centre .waiting-msg")
    table_id = first.table_id() if held is None else await table_of(first)
    for seat, player in enumerate(players[1:], start=1):
        await player.click("[data-action=refresh]")
        row = player.page.locator(f'.table-row[data-table="{table_id}"]')
        await row.locator(f"[data-action=take-seat][data-arg$=':{seat}']").click()
        await player.page.wait_for_selector("#centre .waiting-msg")
    await first.page.click("#prompt [data-action=start]")
    await asyncio.gather(*(p.play_until("sheet") for p in players))
    for player in players:
        await player.page.wait_for_selector(".sheet [data-action=rematch]")
    return players, table_id


async def table_of(player: Player) -> str:
    return str(await player.page.evaluate("() => window.cardavia.app.table.tableId"))


async def panel(player: Player) -> tuple[list[str], str]:
    """The rematch buttons the sheet shows, and its status lines."""
    buttons = await player.page.locator(BUTTONS).evaluate_all(
        "els => els.map(e => e.dataset.action)"
    )
    lines = await player.page.locator(STATUS).all_inner_texts()
    return buttons, " | ".join(t.strip() for t in lines)


async def closed_panel(player: Player, says: str) -> None:
    """No rematch button; the status says ``says``; the way back to the lobby stays."""
    await player.page.wait_for_selector(f"{STATUS}:has-text('{says}')")
    assert await panel(player) == ([], (await player.text(STATUS)))
    assert await player.page.locator(".sheet [data-action=leave]").count() == 1


async def moved_on(player: Player, old: str) -> None:
    """The page follows another table than ``old``."""
    await player.page.wait_for_function("id => window.cardavia.app.table?.tableId !== id", arg=old)


DECLINE = "() => window.cardavia.app.net.send({type: 'rematch', accept: false})"


def refused(player: Player) -> list[Message]:
    return [f for f in player.frames if f.get("type") == "error"]


async def no_error_shown(*players: Player) -> None:
    for player in players:
        assert refused(player) == [], refused(player)
        assert await player.page.locator("#toast").is_hidden()
        assert not player.errors, player.errors


@pytest.mark.timeout(240)
async def test_an_accepted_or_declined_seat_and_a_complete_offer_show_what_is_left(
    new_player: NewPlayer, artifacts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three humans. Bruno accepts (his ``joined`` held: his page stays at the old table):
    no button, his seat waits. Anna says no thanks: "Rematch" only, then accepts after all.
    Carla declines last: every human answered, the new table started without her."""
    deal_from(monkeypatch, where("rematch-panel-3", ordinary))
    held = HeldJoined()
    (bruno, anna, carla), table_id = await finished_table(
        new_player, ["Bruno", "Anna", "Carla"], held
    )
    held.armed = True
    await bruno.page.click(".sheet [data-action=rematch]")
    await closed_panel(bruno, "you accepted")
    await anna.page.wait_for_selector(f"{STATUS}:has-text('Bruno accepted')")
    await bruno.page.wait_for_function(
        "() => (window.cardavia.app.table.rematch?.accepted || []).includes(0)"
    )
    assert await panel(bruno) == ([], "Rematch: you accepted; your seat waits at the new table")
    assert await table_of(bruno) == table_id  # still the old table: its joined is held
    await bruno.screenshot(artifacts / "rematch-panel-accepted.png")

    await anna.page.click(".sheet [data-action=rematch-no]")
    await anna.page.wait_for_function(
        "() => (window.cardavia.app.table.rematch?.declined || []).includes(1)"
    )
    buttons, said = await panel(anna)
    assert buttons == ["rematch"], buttons  # no "No thanks" twice; she may still accept
    assert "you may still accept" in said, said
    await anna.screenshot(artifacts / "rematch-panel-declined.png")
    await anna.page.click(".sheet [data-action=rematch]")  # a decline becomes an accept
    await moved_on(anna, table_id)

    await carla.page.wait_for_selector(f"{STATUS}:has-text('Bruno, Anna accepted')")
    await carla.page.click(".sheet [data-action=rematch-no]")
    await closed_panel(carla, "started without you")
    await carla.screenshot(artifacts / "rematch-panel-started.png")
    held.release()
    await moved_on(bruno, table_id)
    for player in (bruno, anna):
        await player.page.wait_for_selector("#hand .card")
    assert held.errors == []
    await no_error_shown(anna, carla)
    assert not bruno.errors, bruno.errors


@pytest.mark.timeout(180)
async def test_when_every_human_declined_nobody_is_offered_a_button(
    new_player: NewPlayer, artifacts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_from(monkeypatch, where("rematch-panel-no", ordinary))
    (alice, bob), _ = await finished_table(new_player, ["Alice", "Bob"])
    # The sheet offers "No thanks" once someone accepted; a client without it (a
    # terminal, a bot) may decline first, as Alice's connection does here.
    await alice.page.evaluate(DECLINE)
    await bob.page.wait_for_selector(".sheet [data-action=rematch]")
    await alice.page.wait_for_function(
        "() => (window.cardavia.app.table.rematch?.declined || []).includes(0)"
    )
    assert (await panel(alice))[0] == ["rematch"]  # told by the event: she may still accept
    await bob.page.wait_for_function(
        "() => (window.cardavia.app.table.rematch?.declined || []).includes(0)"
    )
    assert (await panel(bob))[0] == ["rematch"]  # nobody accepted: no "No thanks" to say
    await bob.page.evaluate(DECLINE)
    for player in (alice, bob):
        await closed_panel(player, "every player said no thanks")
    await alice.screenshot(artifacts / "rematch-panel-nobody.png")
    await no_error_shown(alice, bob)


@pytest.mark.timeout(180)
@pytest.mark.parametrize("server", [20.0], indirect=True)
async def test_a_rematch_started_at_the_new_table_or_timed_out_closes_the_panel(
    new_player: NewPlayer, artifacts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice accepts and starts the new table at once: the old table is not told, so Bob's
    "Rematch" is refused with rematch_closed, which the sheet says as a line, not an
    error. Then the offer times out (20 s): Bob is told he did not answer in time."""
    deal_from(monkeypatch, where("rematch-panel-late", ordinary))
    (alice, bob), table_id = await finished_table(new_player, ["Alice", "Bob"])
    await alice.page.click(".sheet [data-action=rematch]")
    await moved_on(alice, table_id)
    await alice.page.click("#prompt [data-action=start]")
    await alice.page.wait_for_selector("#hand .card")
    await bob.page.wait_for_selector(f"{STATUS}:has-text('Alice accepted')")
    # The open offer is counted down from the event's deadline_ms (20 s after Alice's answer).
    await bob.page.wait_for_function(
        "sel => /^\\d+s$/.test(document.querySelector(sel)?.textContent ?? '')",
        arg=f"{ENDS} .timer",
    )
    ends = await bob.text(ENDS)
    assert ends.startswith("The offer ends in ") and 0 < int(ends.split()[-1][:-1]) <= 20, ends
    await bob.screenshot(artifacts / "rematch-panel-counting-down.png")
    assert await bob.click(".sheet [data-action=rematch]")
    # Said on the sheet at once, long before the offer's deadline closes it anyway.
    said = f"{STATUS}:text-is('Rematch: the offer closed')"
    await bob.page.wait_for_selector(said, timeout=10000)
    await closed_panel(bob, "the offer closed")
    assert await bob.page.locator(ENDS).count() == 0  # closed: nothing left to count down
    assert [e["code"] for e in refused(bob)] == ["rematch_closed"]  # the server's answer
    assert await bob.page.locator("#toast").is_hidden()  # not shown as an error
    assert await table_of(bob) == table_id
    await bob.screenshot(artifacts / "rematch-panel-closed.png")
    assert not bob.errors, bob.errors
    await closed_panel(bob, "before you answered")  # the offer's deadline passed
    await bob.screenshot(artifacts / "rematch-panel-timed-out.png")
    await no_error_shown(alice)
