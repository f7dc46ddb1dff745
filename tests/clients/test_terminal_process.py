"""``tarot play`` as a user runs it: a real process in a real terminal (tmux), keys and screen.

The terminal client once hung with its default AI: its local server started
the AI's worker processes from inside the terminal UI, whose swapped standard
streams made multiprocessing fail (``bad value(s) in fds_to_keep``), and the
table waited forever. These tests start it with no arguments (and with each
AI level) and wait for the AI to bid.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .tmux import TAROT, Terminal

AI_BID = r"(?m)^AI [2-4]: (pass|prise|garde|garde sans|garde contre)\s*$"


def an_ai_bid(terminal: Terminal, seconds: float = 30.0) -> str:
    """The first AI bid in the log (passing when the player is asked to bid first)."""
    if terminal.wait_for(f"(?m)Your bid|{AI_BID[4:]}", seconds)[0] == "Your bid":
        terminal.press("Enter")  # the first choice, pass: then the AI bids
    return terminal.wait_for(AI_BID, seconds)[0].strip()


@pytest.mark.parametrize("ai", [None, "random", "basic", "strong"])
def test_tarot_play_started_as_a_user_does_sees_the_ai_bid(tmp_path: Path, ai: str | None) -> None:
    argv = [str(TAROT), "play", *(["--ai", ai] if ai else [])]  # no arguments: expert
    terminal = Terminal(tmp_path).start(*argv)
    try:
        terminal.wait_for(r"Seated at table \w+, seat 0")
        assert an_ai_bid(terminal).startswith("AI ")
        terminal.press("q")
        assert terminal.exit_status() == 0
    finally:
        terminal.close()
