"""A spectator's screen keeps who played (issue 27.1): four humans play a deal while a
browser watches, then all four leave and the AI takes their seats. The sheet and the log
of that deal still name the humans who held the seats then, and a finished table says
nothing about a deal to come ("Bidding · AI 4 to play" beside "Game over")."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from clients.python import Bot, Client, play_table
from protocol import models as m
from server.app import App

from .conftest import NewPlayer

NAMES = ["Chloé", "Bertrand", "Anaïs", "Dominique"]


class Taker(Bot):
    """Takes a prise when it may (the first to speak takes), else passes."""

    def bid(self, view: m.SeatView, bids: list[m.ContractCode]) -> m.ContractCode:
        return "prise" if "prise" in bids else "pass"


async def four_humans_at_one_table(url: str) -> tuple[list[Client], str]:
    clients = [await Client.connect(url, "json") for _ in NAMES]
    created = await clients[0].create_table(m.TableOptions(name="Salon", deals=1))
    table_id = created.table.table_id
    for seat, (client, name) in enumerate(zip(clients, NAMES, strict=True)):
        await client.join(table_id, seat=seat, name=name)
    return clients, table_id


@pytest.mark.timeout(180)
async def test_a_spectator_keeps_the_names_of_who_played_after_they_leave(
    new_player: NewPlayer, server: App, artifacts: Path
) -> None:
    url = f"ws://127.0.0.1:{server.port}/"
    clients, table_id = await four_humans_at_one_table(url)
    spectator = await new_player(1366, 768)
    await spectator.open()
    await spectator.click("[data-action=refresh]")
    await spectator.page.locator(f'.table-row[data-table="{table_id}"] [data-action=watch]').click()
    await spectator.page.wait_for_selector("#seats .seat")
    await asyncio.gather(*(play_table(c, Taker()) for c in clients))
    await spectator.page.wait_for_selector(".sheet [data-field=taker]")
    record = spectator.events("score")[-1]["sheet"]
    taker = NAMES[record["taker"]]
    for client in clients:
        await client.leave()
        await client.close()
    await spectator.page.wait_for_function(
        "() => window.cardavia.app.table.summary.seats.every((s) => s.occupant === 'ai')"
    )
    await spectator.page.wait_for_timeout(300)
    await spectator.screenshot(artifacts / "spectator-names-after-leaving.png")
    assert await spectator.text(".sheet [data-field=taker]") == taker
    for seat, name in enumerate(NAMES):
        row = spectator.page.locator(f".sheet tr[data-seat='{seat}'] td").first
        assert (await row.inner_text()).startswith(name), seat
    # 27.6: the side panel's points at the end are the sheet's, the discard counted.
    taker_points = await spectator.text("#info [data-field=points-taker]")
    assert taker_points == await spectator.text(".sheet [data-field=points] strong")
    # Said as counted, not "+ the taker's discard, counted at the end" (a prise: Taker's bid).
    assert await spectator.text("#info [data-field=points-note]") == "incl. the taker’s discard"
    log = await spectator.page.locator("#info [data-section=log] li").all_inner_texts()
    assert any(taker in line and "contract" in line for line in log), log
    assert not any("AI" in line for line in log), log
    # The table is over: no phase, nobody to play.
    await spectator.click(".sheet [data-action=close-sheet]")
    board = await spectator.page.locator("#board").inner_text()
    assert "to play" not in board and "Bidding" not in board, board
    assert "to play" not in await spectator.text("#info"), await spectator.text("#info")
    await spectator.screenshot(artifacts / "spectator-names-table.png")
    assert not spectator.errors, spectator.errors
