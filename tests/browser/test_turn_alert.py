"""The turn alert (issue 15.10): a short sound on the player's turn, and a flashing title
while the tab is hidden; the "Sound and turn alert" setting turns both off.

The page cannot be hidden in a headless Chromium, so an init script makes
``document.visibilityState`` answer what the test says (and fires
``visibilitychange``), and counts the WebAudio oscillators started."""

from __future__ import annotations

import pytest

from .conftest import NewPlayer
from .player import Player

HOOKS = """
window.__visibility = "visible";
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true, get: () => window.__visibility,
});
Object.defineProperty(Document.prototype, "hidden", {
  configurable: true, get: () => window.__visibility === "hidden",
});
window.__sounds = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.__sounds += 1;
  return start.apply(this, args);
};
"""

TITLE_FLASHES = "() => document.title.startsWith('●')"


async def set_visibility(player: Player, state: str) -> None:
    await player.page.evaluate(
        "s => { window.__visibility = s; document.dispatchEvent(new Event('visibilitychange')); }",
        state,
    )


async def wait_for_my_turn(player: Player) -> None:
    """Until the page holds this player's choices (a bid or cards): its turn."""
    await player.page.wait_for_function(
        "() => Boolean(window.cardavia.app.table && window.cardavia.app.table.legal)",
        timeout=30000,
    )


@pytest.mark.timeout(120)
async def test_a_hidden_tab_flashes_its_title_and_sounds_on_the_players_turn(
    new_player: NewPlayer,
) -> None:
    player = await new_player()
    await player.page.context.add_init_script(HOOKS)
    await player.open()
    title = await player.page.title()
    await set_visibility(player, "hidden")
    await player.page.click("[data-action=quick-start]")
    await wait_for_my_turn(player)
    await player.page.wait_for_function(TITLE_FLASHES, timeout=5000)
    assert await player.page.evaluate("() => window.__sounds") >= 1
    # Back to the tab: the flash stops and the title is the page's own again.
    await set_visibility(player, "visible")
    await player.page.wait_for_function(f"() => document.title === {title!r}", timeout=3000)
    assert player.errors == []


@pytest.mark.timeout(120)
async def test_the_setting_turns_the_sound_and_the_flash_off(new_player: NewPlayer) -> None:
    player = await new_player()
    await player.page.context.add_init_script(HOOKS)
    await player.open()
    box = player.page.locator("#setting-sound")
    await player.settings()
    assert await box.is_checked()  # on by default
    await box.uncheck()
    assert await player.page.evaluate("() => window.cardavia.app.settings.sound") is False
    await player.settings(open=False)
    await set_visibility(player, "hidden")
    await player.page.click("[data-action=quick-start]")
    await wait_for_my_turn(player)
    # The player is asked (its bid or its card), and nothing sounded or flashed meanwhile.
    await player.page.wait_for_timeout(1500)
    assert await player.page.evaluate("() => window.__sounds") == 0
    assert not await player.page.evaluate(TITLE_FLASHES)
    # The setting is remembered by this browser.
    await player.page.reload()
    await player.page.wait_for_selector("#conn[data-status=online]")
    assert await player.page.evaluate("() => window.cardavia.app.settings.sound") is False
    assert player.errors == []
