"""The chat panel's place (issue 23): at 1366x768 it sits in the side column under the
panel, over neither the panel, the board nor the hand; on a phone (390x844) it comes
under the hand in the page's flow, opened or folded, and never covers it. Checked by
bounding boxes, with the chat holding lines; screenshots in
test-artifacts/chat-layout-WIDTHxHEIGHT.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import NewPlayer
from .player import Player
from .test_chat import server

__all__ = ["server"]  # the fixture (guests write at once), used by name

PRESETS = ("hello", "good_luck", "oops", "thanks", "sorry")
# What is drawn at the middle of the hand's bottom edge: the hand, the chat, or other.
ON_HAND_BOTTOM = """() => {
    const r = document.querySelector('#hand .hand-cards').getBoundingClientRect();
    const at = document.elementFromPoint((r.left + r.right) / 2, r.bottom - 4);
    if (!at) return null;
    return at.closest('#chat') ? 'chat' : at.closest('#hand') ? 'hand' : 'other';
}"""


def overlap(a: list[float], b: list[float]) -> float:
    """The area two boxes (left, top, right, bottom) share: 0 when they do not meet."""
    wide = min(a[2], b[2]) - max(a[0], b[0])
    high = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, wide) * max(0.0, high)


async def chatting(player: Player) -> None:
    """At a quick table, the chat open and holding a few lines."""
    await player.open()
    await player.page.click("[data-action=quick-start]")
    await player.page.wait_for_selector("#hand .card")
    await player.page.wait_for_selector("#chat .chat-presets button", state="attached")
    if await player.page.locator("#chat[data-open=false]").count():
        await player.page.click("#chat .chat-toggle")
    for code in PRESETS:
        await player.page.click(f"#chat .chat-presets [data-preset={code}]")
    await player.page.wait_for_function(
        "n => document.querySelectorAll('#chat .chat-line').length >= n", arg=len(PRESETS)
    )


# Every box read in one task: the table plays on (the AI's cards, a turn's controls in the
# hand's area), and boxes read one await apart could come from two layouts (a hand read
# after it grew, a chat read before the flow moved it down).
BOXES = """(sels) => sels.map(sel => {
    const r = document.querySelector(sel)?.getBoundingClientRect();
    return r ? [r.left, r.top, r.right, r.bottom] : null; })"""


async def boxes(player: Player, *selectors: str) -> list[list[float]]:
    found = await player.page.evaluate(BOXES, list(selectors))
    assert all(b is not None for b in found), (selectors, found)
    return [list(b) for b in found]


async def no_overlaps(player: Player) -> None:
    others = ("#info", ".board", "#hand")
    chat, *found = await boxes(player, "#chat", *others)
    for other, other_box in zip(others, found, strict=True):
        assert overlap(chat, other_box) == 0, f"the chat {chat} over {other} {other_box}"


@pytest.mark.timeout(120)
async def test_at_1366x768_the_chat_is_in_the_side_column_over_nothing(
    new_player: NewPlayer, artifacts: Path
) -> None:
    player = await new_player(1366, 768)
    await chatting(player)
    await no_overlaps(player)
    chat, info = await boxes(player, "#chat", "#info")
    assert abs(chat[0] - info[0]) <= 1 and abs(chat[2] - info[2]) <= 1  # the panel's column
    assert chat[3] <= 768  # in view, under the panel
    await player.screenshot(artifacts / "chat-layout-1366x768.png")
    assert not player.errors


@pytest.mark.timeout(120)
async def test_on_a_phone_the_chat_never_covers_the_hand(
    new_player: NewPlayer, artifacts: Path
) -> None:
    player = await new_player(390, 844)
    await chatting(player)
    await no_overlaps(player)
    hand, chat = await boxes(player, "#hand", "#chat")
    assert chat[1] >= hand[3]  # under the hand, in the flow
    await player.screenshot(artifacts / "chat-layout-390x844.png")
    # Scrolled so that the hand is at the bottom of the screen: still nothing over it.
    await player.page.evaluate("document.getElementById('hand').scrollIntoView({block: 'end'})")
    await no_overlaps(player)
    on_hand = await player.page.evaluate(ON_HAND_BOTTOM)
    assert on_hand == "hand"
    await player.page.click("#chat .chat-toggle")  # folded: a bar under the hand
    await no_overlaps(player)
    await player.screenshot(artifacts / "chat-layout-390x844-folded.png")
    assert not player.errors
