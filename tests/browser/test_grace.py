"""A disconnected player's grace period (issue 27.5): the seat shows it counting down,
then "AI plays" instead of only "away", and the table says the AI plays for that player."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.python import Client
from protocol import models as m
from server.app import App

from .conftest import NewPlayer

KEEP_WHAT_IS_SAID = """() => {
    window.saidInLog = new Set();
    window.saidLive = new Set();
    const keep = () => {
        for (const li of document.querySelectorAll('#info [data-section=log] li')) {
            window.saidInLog.add(li.innerText);
        }
        const live = document.querySelector('#live')?.textContent;
        if (live) window.saidLive.add(live);
    };
    new MutationObserver(keep).observe(document.body,
        {childList: true, subtree: true, characterData: true});
}"""


@pytest.mark.timeout(90)
async def test_a_dropped_players_grace_is_counted_down_then_the_ai_plays_for_them(
    new_player: NewPlayer, server: App, artifacts: Path
) -> None:
    url = f"ws://127.0.0.1:{server.port}/"
    chloe = await Client.connect(url, "json")
    options = m.TableOptions(name="Grace", deals=2, grace_seconds=4, ai_level="random")
    created = await chloe.create_table(options)
    table_id = created.table.table_id
    await chloe.join(table_id, seat=1, name="Chloé")
    spectator = await new_player(1366, 768, query="speed=0")
    await spectator.open()
    await spectator.click("[data-action=refresh]")
    await spectator.page.locator(f'.table-row[data-table="{table_id}"] [data-action=watch]').click()
    await spectator.page.wait_for_selector("#seats .seat")
    # What the page said, kept as it says it: once the AI plays, the deal runs at its pace,
    # and on a busy machine 17 tricks had pushed the line out of the log before it was read.
    await spectator.page.evaluate(KEEP_WHAT_IS_SAID)
    await chloe.start()
    await chloe.close()  # the connection drops: the grace period starts
    away = spectator.page.locator("#seats .seat[data-seat='1'] [data-field=away] .timer")
    await away.wait_for()
    await spectator.page.wait_for_function(
        "() => /^[1-4]s$/.test(document.querySelector(\"#seats .seat[data-seat='1'] .timer\")"
        "?.textContent || '')"
    )
    await spectator.screenshot(artifacts / "grace-countdown-1366.png")
    plays = spectator.page.locator("#seats .seat[data-seat='1'] [data-field=ai-plays]")
    await plays.wait_for(state="attached", timeout=30000)  # the page's 1 s clock, on a busy machine
    assert await plays.inner_text() == "AI plays"
    said = "The AI plays for Chloé, who is away."
    await spectator.page.wait_for_function("s => window.saidInLog.has(s)", arg=said)
    await spectator.page.wait_for_function("s => window.saidLive.has(s)", arg=said)
    await spectator.screenshot(artifacts / "grace-ai-plays-1366.png")
    assert not spectator.errors, spectator.errors
