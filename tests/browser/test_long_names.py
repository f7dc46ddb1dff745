"""Long names and a spectator at a laptop's 1366x768 (issue 27.7, 27.8): scores never
split over lines, a "Pass" bubble never wraps, the sheet fits with "Next deal" in sight;
for a spectator South's card is not under its name plate, North's and South's cards do
not overlap, and the last trick's labels are inside the side panel."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from clients.python import Bot, Client, play_table
from protocol import models as m
from server.app import App

from .conftest import NewPlayer

LONG = [
    "Maximilienne de la Tour d'Auvergne",
    "Bartholomew Fitzwilliam-Cholmondeley",
    "Anne-Sophie Vandenbroucke-Delacroix",
]
ONE_LINE = """els => els.filter((e) => {
    const r = document.createRange(); r.selectNodeContents(e);
    const lines = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
    return lines.size > 1;
}).map((e) => e.textContent)"""
BOX = "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"
# A whole trick on the felt, not yet leaving: each card's box where it lies. A card just
# played slides in from its seat for 0.3 s (South's from under South's plate, as from the
# hand), so the box is the card's place in its slot (offsets ignore the slide's transform),
# not where the slide has got to when it is measured.
RESTING = """() => {
    const trick = document.querySelector('#centre .trick');
    if (!trick || trick.classList.contains('leaving')) return null;
    if (!document.querySelector('#info [data-section=last-trick]')) return null;
    const slots = [...trick.querySelectorAll('.slot')];
    if (slots.length !== 4) return null;
    return Object.fromEntries(slots.map((s) => {
        const c = s.querySelector('.card'), r = s.getBoundingClientRect();
        const x = r.left + c.offsetLeft, y = r.top + c.offsetTop;
        return [s.className.match(/pos-(\\w+)/)[1], [x, y, x + c.offsetWidth, y + c.offsetHeight]];
    }));
}"""


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


class Passer(Bot):
    def bid(self, view: m.SeatView, bids: list[m.ContractCode]) -> m.ContractCode:
        return "pass"


@pytest.mark.timeout(240)
async def test_long_names_and_a_spectator_at_1366x768(
    new_player: NewPlayer, server: App, artifacts: Path
) -> None:
    me = await new_player(1366, 768, query="speed=0.2")
    await me.open()
    await me.page.fill("#player-name", "Guillemette-Héloïse de Montmorency")
    await me.page.fill("#create-form [name=name]", "Long names")
    await me.page.fill("#create-form [name=deals]", "2")
    await me.page.click("#create-form [type=submit]")
    await me.page.wait_for_selector("#centre .waiting-msg")
    table_id = me.table_id()
    url = f"ws://127.0.0.1:{server.port}/"
    clients = [await Client.connect(url, "json") for _ in LONG]
    # The spectator at the slowest pace: a whole trick stays about 6 s on its felt, time to
    # measure and picture it on a busy machine (at 1, 2 s were once not enough for the
    # screenshot; at 0.2 it leaves about as soon as its last card lands).
    spectator = await new_player(1366, 768, query="speed=3")
    await spectator.open()
    await spectator.click("[data-action=refresh]")
    await spectator.page.locator(f'.table-row[data-table="{table_id}"] [data-action=watch]').click()
    for seat, (client, name) in enumerate(zip(clients, LONG, strict=True), start=1):
        await client.join(table_id, seat=seat, name=name)
    bots = [asyncio.create_task(play_table(c, Passer())) for c in clients]

    # Bidding: the others pass; their bubbles stay on one line.
    await me.page.wait_for_selector("#seats .bubble.pass")
    bids = "#seats .bubble, #info [data-section=bids] li > *, #info [data-field^=total-]"
    wrapped = await me.page.locator(bids).evaluate_all(ONE_LINE)
    assert wrapped == [], wrapped
    await me.screenshot(artifacts / "long-names-bidding-1366.png")

    # Play: for the spectator, a whole trick on the felt: South's card clear of its plate,
    # North's and South's clear of each other; the last trick's labels in the panel.
    playing = asyncio.create_task(me.play_until("sheet", bid="garde"))
    found = await spectator.page.wait_for_function(RESTING, polling=50)
    slots = await found.json_value()
    plate = await spectator.page.locator("#seats .seat.pos-bottom .plate").evaluate(BOX)
    assert not overlap(slots["bottom"], plate), (slots, plate)
    assert not overlap(slots["bottom"], slots["top"]), slots
    await spectator.screenshot(artifacts / "long-names-spectator-trick-1366.png")
    assert await spectator.page.locator("#centre .trick:not(.leaving) .slot").count() == 4
    await spectator.page.wait_for_function(
        "() => document.querySelectorAll('#centre .slot').length < 4"
    )
    await spectator.settle()
    panel = await spectator.page.locator("#info").evaluate(BOX)
    wider = await spectator.page.locator("#info *").evaluate_all(
        f"els => els.filter(e => e.getBoundingClientRect().right > {panel[2]} + 1)"
        ".map(e => e.className || e.tagName)"
    )
    assert wider == [], wider  # nothing sticks out of the side panel
    last = spectator.page.locator("#info [data-section=last-trick]")
    # The panel scrolls at 1366x768 since the chat sits under it (issue 23): in view, the
    # labels are inside it.
    await last.evaluate("e => e.scrollIntoView({block: 'end'})")
    panel = await spectator.page.locator("#info").evaluate(BOX)
    labels = await last.locator(".trick-lines span").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().bottom)"
    )
    assert labels and max(labels) <= panel[3], (labels, panel)
    assert max(labels) <= 768

    # The end of the first deal: scores on one line, the sheet with "Next deal" in sight.
    await playing
    await me.page.wait_for_selector(".sheet [data-action=next-deal]")
    await me.settle()
    split = await me.page.locator("#info [data-field^=total-], .sheet td.num").evaluate_all(
        ONE_LINE
    )
    assert split == [], split
    button = await me.page.locator(".sheet [data-action=next-deal]").evaluate(BOX)
    assert button[3] <= 768 and button[1] >= 0, button
    assert await me.page.locator(".sheet [data-action=next-deal]").is_visible()
    await me.screenshot(artifacts / "long-names-sheet-1366.png")
    for task in bots:
        task.cancel()
    for client in clients:
        await client.close()
    assert not me.errors and not spectator.errors, (me.errors, spectator.errors)
