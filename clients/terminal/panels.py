"""The panels around the table: the header, the seats, and beside them the deal or its sheet.

Drawn for an 80-column terminal: the seats take ``SEATS_CELLS`` columns and the
panel beside them what is left (``PANEL_CELLS`` at 80). Every line here fits
its column whole, so nothing wraps in the middle of a name, a card or a
figure: names are cut to ``NAME_CELLS`` cells in the seats' table and to
``PANEL_NAME_CELLS`` in the panel (an ellipsis says so; wide characters count
two), and the panel's lines are at most ``PANEL_CELLS`` cells. The seats'
table has the card each seat played to the trick, and at the end of a deal
its score, next to the totals; the panel has the trick's number and leader,
the card points won so far and the taker's target (the server's figures:
``SeatView.points``, ``taker_bouts``, ``target``, ``discard_points``), the last
trick, the chien, the poignées shown; then the score sheet.
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from rich.text import Text

from clients.python import TableState
from protocol import models as m

from .render import BONUSES, CONTRACTS, card_text, deal_of, plural, reason_text, seat_name

NAME_CELLS = 14
PANEL_NAME_CELLS = 12  # a name in a line of the panel beside the seats
SEATS_CELLS = 49  # the seats' column, padding included (its widest line is 47)
PANEL_CELLS = 80 - SEATS_CELLS - 2  # what the panel's lines may take at 80 columns
CARDS_PER_ROW = PANEL_CELLS // 4
# Before play the taker's side has won nothing yet; what it will have besides its tricks.
LATER = {
    "prise": "+ the discard, at the end",
    "garde": "+ the discard, at the end",
    "garde_sans": "+ the chien, the taker's",
    "garde_contre": "+ the chien, the defence's",
}


def short(name: str, cells: int = NAME_CELLS) -> str:
    """``name`` in at most ``cells`` terminal cells, cut with an ellipsis.

    >>> short("Chloé"), short("Marie-Chloé de la Tour"), short("王小明王小明王小明")
    ('Chloé', 'Marie-Chloé d…', '王小明王小明…')
    """
    if cell_len(name) <= cells:
        return name
    return set_cell_size(name, cells - 1).rstrip() + "…"


def header_text(state: TableState) -> Text:
    """Two lines: the table, the deal and its dealer; the contract (or the bidding)."""
    view = state.view
    text = Text(f"Table {short(state.table_id, 16)}", style="bold")
    watching = state.table.spectators if state.table is not None else 0
    if watching:
        text.append(f" · {watching} watching")
    if view is None:
        return text
    text.append(f" · {deal_of(state, view.deal_number)}")
    text.append(f" · dealer {short(seat_name(state, view.dealer))}\n")
    if view.taker is not None and view.contract is not None:
        text.append(f"{short(seat_name(state, view.taker))}: {CONTRACTS[view.contract]}")
        if view.chelem:
            text.append(" (chelem announced)", style="bold red")
    elif view.phase == "bidding":
        text.append("Bidding")
    return text


def _seat_label(state: TableState, seat: int) -> str:
    """The seat's name, and ``(AI)`` or ``(away)`` when the AI plays it or its player left."""
    name = seat_name(state, seat)
    suffix = ""
    if state.table is not None:
        info = state.table.seats[seat]
        if info.occupant == "ai" and not name.startswith("AI"):
            suffix = " (AI)"
        elif info.occupant == "human" and not info.connected and seat != state.seat:
            suffix = " (away)"
    return short(name, NAME_CELLS - len(suffix)) + suffix


def _played(view: m.SeatView, seat: int) -> str | None:
    """The card ``seat`` played to the trick on the table, if it has."""
    trick = view.trick
    if trick is None:
        return None
    turn = (seat - trick.leader) % 4
    return trick.cards[turn] if turn < len(trick.cards) else None


def seats_text(state: TableState) -> Text:
    """A row per seat: name, bid, tricks won, the card it played (the deal's score once the
    sheet is in), the total; ``>`` marks the seat to act."""
    view = state.view
    sheet = view.sheet if view is not None else None
    fourth = "Score" if sheet is not None else "Plays"
    text = Text(f"  {'Player':<{NAME_CELLS}} {'Bid':<12} {'Won':>3} {fourth:>6} {'Total':>6}\n")
    text.stylize("dim")
    for seat in range(4):
        acting = view is not None and view.to_act == seat
        label = set_cell_size(_seat_label(state, seat), NAME_CELLS)
        row = Text(f"{'>' if acting else ' '} {label} ", style="bold" if acting else "")
        bids = [CONTRACTS[b.contract] for b in view.bids if b.seat == seat] if view else []
        row.append(f"{bids[0] if bids else '-':<12} ")
        row.append(f"{view.tricks_won[seat] if view is not None else '':>3} ")
        card = _played(view, seat) if view is not None else None
        if sheet is not None:
            row.append(f"{sheet.scores[seat]:>+6g}")
        elif card is not None:
            row.append("   ")
            row.append_text(card_text(card))
        else:
            row.append(" " * 6)
        row.append(f" {state.totals[seat]:>6g}\n")
        text.append_text(row)
    return text


def _cards(codes: list[str]) -> Text:
    """Cards in rows of ``CARDS_PER_ROW`` (each takes four cells), under the line naming them."""
    text = Text()
    for start in range(0, len(codes), CARDS_PER_ROW):
        for code in codes[start : start + CARDS_PER_ROW]:
            text.append_text(card_text(code))
            text.append(" ")
        text.append("\n")
    return text


def _named(state: TableState, seat: int) -> str:
    """A seat's name in a line of the panel."""
    return short(seat_name(state, seat), PANEL_NAME_CELLS)


def _trick_lines(state: TableState, view: m.SeatView) -> Text:
    """Which trick, who leads it, the points so far and the taker's target."""
    number = len(view.tricks) + 1
    trick = view.trick
    text = Text()
    if trick is not None and trick.cards:
        text.append(f"Trick {number}, led by {_named(state, trick.leader)}\n")
    elif view.to_act is not None:
        text.append(f"Trick {number}: {_named(state, view.to_act)} leads\n")
    if view.taker is None or view.contract is None:
        return text
    taker = view.points[0] + (view.discard_points or 0)
    bouts = plural(view.taker_bouts, "bout")
    text.append(f"Taker {taker:g}, needs {view.target}, {bouts}\n", style="bold")
    text.append(f"Defence {view.points[1]:g}\n")
    if view.discard_points is not None:
        text.append(f"incl. {view.discard_points:g} in your discard\n", style="dim")
    else:
        text.append(f"{LATER[view.contract]}\n", style="dim")
    return text


def table_text(state: TableState) -> Text:
    """The panel beside the seats while a deal is on."""
    view = state.view
    text = Text()
    if view is None:
        return text
    if view.chien is not None and not view.tricks and view.phase != "play":
        text.append("Chien:\n")
        text.append_text(_cards(view.chien))
    if view.phase == "play":
        text.append_text(_trick_lines(state, view))
    if view.discard_trumps:
        text.append("Trumps discarded:\n")
        text.append_text(_cards(view.discard_trumps))
    if view.tricks:
        last = view.tricks[-1]
        text.append(f"Last trick to {_named(state, last.winner or 0)}:\n")
        text.append_text(_cards(last.cards))
    for shown in view.poignees:
        text.append(f"{_named(state, shown.seat)}: {shown.level} poignée\n")
        text.append_text(_cards(shown.cards))
    text.rstrip()
    return text


def sheet_text(state: TableState, sheet: m.ScoreSheet) -> Text:
    """The score sheet (docs/RECORD.md) in short lines; the scores are in the seats' table."""
    if sheet.status == "cancelled":
        return Text(f"Deal cancelled:\n{reason_text(sheet.reason)}, no score.", style="bold")
    text = Text("Score sheet\n", style="bold underline")
    if sheet.taker is not None and sheet.contract is not None and sheet.bouts is not None:
        text.append(f"{_named(state, sheet.taker)}: {CONTRACTS[sheet.contract]}\n")
        made = "made it" if sheet.made else "went down"
        text.append(f"{made} with {sheet.points:g} points\n", style="bold")
        text.append(f"{plural(sheet.bouts, 'bout')}: {sheet.target} needed\n")
    for bonus in sheet.bonuses or []:
        text.append(f"{BONUSES[bonus.kind]} ({bonus.side}): {bonus.points:+g}\n")
    text.rstrip()
    return text
