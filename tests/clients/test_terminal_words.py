"""Issue 27.9 and 27.13: the terminal's words. It speaks English with the seed's French words
for the game's things, accented as the browser's English writes them ("poignée"), counts
in proper plurals ("1 bout", "2 bouts"), and writes trumps as trumps (``T1``, the Petit).
Every prompt fits one row of an 80-column terminal (the row below is for a refusal)."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from clients.python import TableState
from clients.terminal.decisions import decision_for, prompt_text
from clients.terminal.panels import PANEL_CELLS, sheet_text
from clients.terminal.render import card_label, event_line, plural, refusal_text, sheet_lines
from protocol import models as m

PROMPT_CELLS = 78  # 80 columns, less the prompt's padding


def seated(seat: int | None = 0) -> TableState:
    state = TableState("t", seat=seat)
    state.table = m.TableSummary(
        table_id="t",
        options=m.TableOptions(deals=1),
        seats=[m.SeatInfo(seat=s, occupant="ai", name=f"AI {s + 1}") for s in range(4)],
        status="playing",
    )
    return state


def sheet(bouts: int, bonuses: list[m.BonusLine] | None = None) -> m.ScoreSheet:
    return m.ScoreSheet(
        status="played",
        scores=[-150, 50, 50, 50],
        taker=0,
        contract="garde",
        bouts=bouts,
        points=40.5,
        target=[56, 51, 41, 36][bouts],
        made=False,
        bonuses=bonuses,
    )


@pytest.mark.parametrize(("bouts", "says"), [(0, "0 bouts"), (1, "1 bout"), (2, "2 bouts")])
def test_the_sheet_counts_bouts_in_proper_plurals(bouts: int, says: str) -> None:
    logged = " ".join(sheet_lines(seated(), sheet(bouts)))
    panel = sheet_text(seated(), sheet(bouts)).plain
    assert f"and {says}," in logged and f"{says}:" in panel
    assert "(s)" not in logged + panel


def test_poignee_is_written_poignee_with_its_accent_wherever_the_terminal_says_it() -> None:
    state = seated()
    shown = m.PoigneeEvent(seat=1, level="simple", cards=[f"T{n}" for n in range(1, 11)])
    assert event_line(state, shown) == "AI 2 shows a simple poignée."
    bonus = m.BonusLine(kind="poignee", side="defence", points=20)
    assert "  poignée (defence): +20" in sheet_lines(state, sheet(1, [bonus]))
    assert "poignée (defence): +20" in sheet_text(state, sheet(1, [bonus])).plain
    offer = m.PoigneeChoice(level="simple", size=10, cards=[f"T{n}" for n in range(1, 11)])
    legal = m.LegalChoices(seat=0, phase="play", poignees=[offer], cards=["T1"])
    state.turn = m.YourTurn(table_id="t", seq=1, legal=legal)
    asked = decision_for(state, False, False)
    assert asked.prompt == "Show a poignée? (←/→, Enter):"
    assert asked.options == ["none", "simple (10)"]
    choosing = decision_for(state, False, False, offer).prompt
    assert choosing.startswith("Simple poignée, 10 trumps")


def test_trumps_are_written_as_trumps_and_the_petit_and_excuse_by_name() -> None:
    state = seated()
    played = [m.CardEvent(seat=3, card=c) for c in ("T1", "T21", "EX", "KH")]
    assert [event_line(state, e) for e in played] == [
        "AI 4 plays T1 (the Petit)",
        "AI 4 plays T21",
        "AI 4 plays EX (the Excuse)",
        "AI 4 plays K♥",
    ]
    why = "seat 0 played 3S but must overtrump T14 (R12)"
    assert refusal_text(m.PlayAction(card="3S"), "illegal_action", why, "R12") == (
        "3♠ cannot be played: you must overtrump T14 (R12)"
    )
    assert all(len(card_label(f"T{n}")) <= 3 for n in range(1, 22))


def test_counts_in_the_log_are_proper_plurals() -> None:
    assert [plural(n, "deal") for n in (0, 1, 2)] == ["0 deals", "1 deal", "2 deals"]
    over = m.TableOverEvent(totals=[30, -10, -10, -10])
    assert event_line(seated(), over) == "Table over. Totals: You 30, AI 2 -10, AI 3 -10, AI 4 -10."
    cancelled = m.ScoreSheet(status="cancelled", scores=[0, 0, 0, 0], reason="all_pass")
    assert sheet_lines(seated(), cancelled) == ["Deal cancelled (everyone passed): no score."]
    assert sheet_text(seated(), cancelled).plain == "Deal cancelled:\neveryone passed, no score."
    assert event_line(seated(), m.CancelledEvent(reason="petit_sec")) == (
        "Deal cancelled: a petit sec."
    )


def every_decision() -> list[tuple[m.LegalChoices, m.PoigneeChoice | None]]:
    triple = m.PoigneeChoice(level="triple", size=15, cards=[f"T{n}" for n in range(1, 16)])
    double = m.PoigneeChoice(level="double", size=13, cards=[f"T{n}" for n in range(1, 14)])
    simple = m.PoigneeChoice(level="simple", size=10, cards=[f"T{n}" for n in range(1, 11)])
    cards = ["T1"]
    return [
        (
            m.LegalChoices(
                seat=0,
                phase="bidding",
                bids=["pass", "prise", "garde", "garde_sans", "garde_contre"],
            ),
            None,
        ),
        (
            m.LegalChoices(
                seat=0, phase="discard", discard=m.DiscardChoice(count=6, allowed=[], required=[])
            ),
            None,
        ),
        (m.LegalChoices(seat=0, phase="chelem", chelem=True), None),
        (
            m.LegalChoices(seat=0, phase="play", poignees=[simple, double, triple], cards=cards),
            None,
        ),
        (m.LegalChoices(seat=0, phase="play", poignees=[triple], cards=cards), triple),
        (m.LegalChoices(seat=0, phase="play", cards=cards), None),
    ]


@pytest.mark.parametrize(("legal", "offer"), every_decision())
def test_every_prompt_fits_one_row_of_80_columns(
    legal: m.LegalChoices, offer: m.PoigneeChoice | None
) -> None:
    state = seated()
    state.turn = m.YourTurn(table_id="t", seq=1, legal=legal)
    decision = decision_for(state, False, False, offer)
    for option in range(max(len(decision.options), 1)):
        shown = prompt_text(decision, option, selected=15, error="").plain
        assert cell_len(shown.rstrip()) <= PROMPT_CELLS, shown
    assert PANEL_CELLS >= 29  # the panel's lines (at most 29 cells) fit beside the seats
