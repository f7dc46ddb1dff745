"""Issue 27.13 and 27.9: ``tarot play`` in an 80x24 terminal (tmux), as a player finds it.

The panel beside the seats once had 14 columns at 80: the last trick and the
score sheet wrapped a word a row ("(You won):", "+396  AI 2"); trumps were bare
numbers ("AI 4 plays 1" for the Petit); the card points and the taker's target
were nowhere while playing; the sheet said "1 bout(s)". Here every row of the
panel must be one of the panel's whole lines (a line that wrapped leaves a
piece that is none of them), the seats' rows must be whole, and the log must
name trumps as trumps.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

from rich.cells import cell_len

from clients.python import Bot, Client, play_table
from clients.terminal.panels import SEATS_CELLS
from protocol import models as m

from .tmux import TAROT, Terminal

CARD = r"(T(1[0-9]|2[01]|[1-9])|EX|(10|[1-9JCQK])[♠♥♦♣])"
NAME = r"\S.{0,13}"  # at most 14 cells (an ellipsis ends a name that was cut)
SHORT = r"\S.{0,11}"  # a name in the panel: at most 12 cells
CONTRACT = r"(prise|garde|garde sans|garde contre)"
# Every line the panel beside the seats may show, whole (panels.py).
PANEL_LINES = [
    r"Chien:",
    rf"Trick \d+, led by {SHORT}",
    rf"Trick \d+: {SHORT} leads",
    r"Taker [\d.]+, needs (36|41|51|56), (1 bout|[023] bouts)",
    r"Defence [\d.]+",
    r"incl\. [\d.]+ in your discard",
    r"\+ the discard, at the end",
    r"\+ the chien, the (taker|defence)'s",
    r"Trumps discarded:",
    rf"Last trick to {SHORT}:",
    rf"( *{CARD}){{1,7}}",  # at most 7 cards a row
    rf"{SHORT}: (simple|double|triple) poignée",
    r"Score sheet",
    rf"{SHORT}: {CONTRACT}( \(chelem announced\))?",
    r"(made it|went down) with [\d.]+ points",
    r"(1 bout|[023] bouts): (36|41|51|56) needed",
    r"(petit au bout|poignée|chelem) \((taker|defence)\): [+-][\d.]+",
    r"Deal cancelled:",
    r"(everyone passed|a petit sec), no score\.",
]
SEAT_ROW = rf"(> )?{NAME} +(-|pass|{CONTRACT})( +\d+)?( +({CARD}|[+-][\d.]+))? +-?[\d.]+"


def columns(row: str) -> tuple[str, str]:
    """A screen row cut where the panel starts: (the seats' part, the panel's part), by
    terminal cells (a wide character takes two)."""
    cells = 0
    for i, char in enumerate(row):
        if cells >= SEATS_CELLS:
            return row[:i], row[i:]
        cells += cell_len(char)
    return row, ""


def check_screen(screen: str) -> str:
    """The panel's rows, each one of its whole lines; the seats' rows whole. Returns the panel."""
    rows = screen.splitlines()
    panel = [columns(row)[1].strip() for row in rows[2:12]]
    for line in panel:
        assert not line or any(re.fullmatch(p, line) for p in PANEL_LINES), (line, screen)
    seats = [columns(row)[0].strip() for row in rows[3:7]]
    for line in seats:
        assert re.fullmatch(SEAT_ROW, line), (line, screen)
    assert "bout(s)" not in screen and "oignee" not in screen, screen
    return "\n".join(panel)


def test_a_whole_deal_at_80_columns_keeps_every_line_whole_and_shows_the_target(
    tmp_path: Path,
) -> None:
    terminal = Terminal(tmp_path, width=80, height=24)
    terminal.start(str(TAROT), "play", "--ai", "random", "--ai-pause", "0")
    panels: list[str] = []
    logged: set[str] = set()
    try:
        terminal.wait_for(r"Your (bid|card)")
        deadline = time.monotonic() + 120
        while "Score sheet" not in (screen := terminal.screen()):
            assert time.monotonic() < deadline, screen
            panels.append(check_screen(screen))
            logged |= set(screen.splitlines()[-7:-1])
            terminal.press("Enter")  # pass, then the first playable card
            time.sleep(0.1)
        time.sleep(0.5)
        end = check_screen(terminal.screen())
    finally:
        terminal.close()
    playing = [p for p in panels if "Defence " in p]
    assert playing, panels[-1]  # the points and the target while playing
    assert all(re.search(r"Taker [\d.]+, needs \d+, \d bouts?", p) for p in playing)
    assert re.search(r"(made it|went down) with [\d.]+ points", end), end
    plays = [line.strip() for line in logged if " play" in line]
    assert [p for p in plays if re.search(r"plays? T\d+", p)], plays  # trumps are trumps
    assert not [p for p in plays if re.fullmatch(r".* plays? \d+", p)], plays


class Taker(Bot):
    """Takes the deal when it may (a prise), so that a deal is played, not re-dealt; plays
    at a person's pace, for the screen to be read during the deal (``decide`` runs in a
    thread of its own: the server's loop goes on)."""

    def bid(self, view: m.SeatView, bids: list[m.ContractCode]) -> m.ContractCode:
        return "prise" if "prise" in bids else "pass"

    def play(self, view: m.SeatView, cards: list[str]) -> str:
        time.sleep(0.1)
        return super().play(view, cards)


LONG_NAMES = [
    "Marie-Chloé de la Tour du Pin",
    "王小明王小明王小明王小明",
    "Jean-Baptiste Poquelin",
    "Ελένη Παπαδοπούλου",
]


async def test_a_spectator_at_80_columns_sees_long_names_cut_whole(
    url: str, tmp_path: Path
) -> None:
    """Four people with long names (one in wide characters) play; a spectator watches."""
    players = [await Client.connect(url) for _ in LONG_NAMES]
    created = await players[0].create_table(m.TableOptions(deals=1))
    table_id = created.table.table_id
    terminal = Terminal(tmp_path, width=80, height=24)
    terminal.start(str(TAROT), "play", "--server", url, "--watch", table_id)
    game: asyncio.Future[list[list[m.Points]]] | None = None
    try:
        await asyncio.to_thread(terminal.wait_for, r"Watching table")
        for seat, (player, name) in enumerate(zip(players, LONG_NAMES, strict=True)):
            await player.join(table_id, seat=seat, name=name)  # the fourth starts the table
        game = asyncio.gather(*(play_table(p, Taker()) for p in players))
        await asyncio.to_thread(terminal.wait_for, r"Taker [\d.]+, needs")
        seen = 0
        while not game.done():
            check_screen(await asyncio.to_thread(terminal.screen))
            seen += 1
        await game
        screen = (await asyncio.to_thread(terminal.wait_for, "Score sheet")).string
        check_screen(screen)
        header = screen.splitlines()[0].strip()
        # The terminal is the table's one spectator (issue 23: the count is in the header).
        wanted = rf"Table \w+ · 1 watching · deal 1 of 1 · dealer {NAME}"
        assert re.fullmatch(wanted, header), header
        assert "Marie-Chloé d…" in screen and "王小明王小明…" in screen
        assert seen > 10  # screens read while the deal went on
    finally:
        terminal.close()
        if game is not None:
            game.cancel()
        for player in players:
            await player.close()
