"""``tarot play`` as a user runs it: a real process in a real terminal (tmux), keys and screen.

The terminal client once hung with its default AI: its local server started
the AI's worker processes from inside the terminal UI, whose swapped standard
streams made multiprocessing fail (``bad value(s) in fds_to_keep``), and the
table waited forever. These tests start it with no arguments (and with each
AI level) and wait for the AI to bid; another plays a deal by Enter alone at
120 columns and reads the score sheet whole.
"""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import pytest

from clients.terminal.panels import SEATS_CELLS

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


def test_a_whole_deal_at_120_columns_shows_the_score_sheet_uncut(tmp_path: Path) -> None:
    """Enter all the way (pass, no poignee, the first playable card); the sheet's lines whole."""
    terminal = Terminal(tmp_path, width=120, height=40)
    terminal.start(str(TAROT), "play", "--ai", "random", "--ai-pause", "0")
    try:
        hand = terminal.wait_for(r"(?m)^ +(\S+ +){17}\S+ *$")[0]  # the 18 cards dealt
        assert not re.search(r"\bN[♠♥♦♣]", hand)  # the Knight is the Cavalier: C♠
        deadline = time.monotonic() + 90
        while "Score sheet" not in (screen := terminal.screen()):
            assert time.monotonic() < deadline, screen
            terminal.press("Enter")
            time.sleep(0.15)
        terminal.wait_for("Scores: ", 5)
        rows = terminal.screen().splitlines()
        sheet = [row[SEATS_CELLS:].strip() for row in rows]  # the sheet's column
        assert re.search(r"(made it|went down) with [\d.]+ points", "\n".join(sheet)), sheet
        assert re.search(r"(?m)^(1 bout|[023] bouts): \d+ needed$", "\n".join(sheet)), sheet
        seats = "\n".join(row[:SEATS_CELLS].rstrip() for row in rows)  # the deal's scores
        scores = r"(?m)^ *Player +Bid +Won +Score +Total\n.* You .* [+-][\d.]+ +-?[\d.]+$"
        assert re.search(scores, seats), seats
        logged = " ".join(" ".join(rows).split())  # the log's lines, the scores whole
        assert re.search(r"Scores: You [+-][\d.]+, AI 2 [+-][\d.]+, AI 3 [+-][\d.]+", logged)
    finally:
        terminal.close()


def test_a_local_server_warning_reaches_the_player(tmp_path: Path) -> None:
    """A bot worker killed under ``tarot play``: its server says so in the terminal's log
    (a warning on its standard error would reach nobody: the UI holds it)."""
    terminal = Terminal(tmp_path).start(str(TAROT), "play")
    try:
        an_ai_bid(terminal)  # the expert AI's workers are running
        workers = [pid for pid, line in terminal.processes().items() if "spawn_main" in line]
        assert workers, terminal.processes()
        os.kill(workers[0], signal.SIGKILL)
        deadline = time.monotonic() + 30
        while "a bot worker died" not in (screen := terminal.screen()):
            assert time.monotonic() < deadline, screen
            terminal.press("Enter")  # pass, or play: the AI decides next
            time.sleep(0.3)
        assert re.search(r"Server: warning: a bot worker died", screen)
        terminal.press("q")
        assert terminal.exit_status() == 0
    finally:
        terminal.close()
