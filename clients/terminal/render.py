"""What the terminal shows, as Rich text built from the client's state (no I/O here).

Cards keep their codes (docs/RECORD.md) with the suit's symbol: ``K♥``, ``10♠``,
trumps as ``21``..``1`` in yellow, the Excuse as ``EX``; the Knight is the seed's
Cavalier, ``C♠`` (its code is ``NS``).

Every string that comes from the server (names, table ids, messages) is drawn
as text: ``printable`` replaces control and format characters, so that an
escape sequence in a player's name (an OSC 52 clipboard write, a colour, a
cursor move) or a bidirectional override reaches nobody's terminal.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rich.text import Text

from clients.python import TableState
from clients.python.printable import printable
from protocol import models as m

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = {"H", "D"}
CONTRACTS = {
    "pass": "pass",
    "prise": "prise",
    "garde": "garde",
    "garde_sans": "garde sans",
    "garde_contre": "garde contre",
}


CARD_CODE = re.compile(r"T([1-9]|1[0-9]|2[01])|EX|([1-9]|10|[JNQK])[SHDC]")
RANKS = {"N": "C"}  # the Knight is the Cavalier (the seed's word); other ranks keep their code


def card_label(code: str) -> str:
    if code == "EX":
        return "EX"
    if code.startswith("T"):
        return code[1:]
    rank = code[:-1]
    return RANKS.get(rank, rank) + SYMBOLS[code[-1]]


def refusal_text(action: object, code: str, message: str, rule: str | None) -> str:
    """Why the server refused ``action``, in the player's terms: the engine's reason.

    ``seat 0 played KH but must follow spades (R11)`` reads
    ``K♥ cannot be played: you must follow spades (R11)``; card codes in the
    reason are drawn as the hand draws them (``must overtrump 14``).
    """
    what = "refused"
    if isinstance(action, m.PlayAction):
        what = f"{card_label(action.card)} cannot be played"
    _, but, why = message.partition(" but ")
    reason = f"you {why}" if code == "illegal_action" and but else message
    reason = " ".join(card_label(w) if CARD_CODE.fullmatch(w) else w for w in reason.split(" "))
    named = rule is None or f"({rule})" in reason
    return f"{what}: {reason}" + ("" if named else f" ({rule})")


def card_style(code: str) -> str:
    if code == "EX":
        return "bold magenta"
    if code.startswith("T"):
        return "bold yellow"
    return "bold red" if code[-1] in RED else "bold white"


def card_text(code: str, extra: str = "") -> Text:
    return Text(f"{card_label(code):>3}", style=f"{card_style(code)} {extra}".strip())


def seat_name(state: TableState, seat: int) -> str:
    if seat == state.seat:
        return "You"
    if state.table is not None:
        info = state.table.seats[seat]
        if info.name:
            return printable(info.name)
    return f"Seat {seat}"


def says(state: TableState, seat: int, verb: str) -> str:
    """``You play`` / ``AI 2 plays``."""
    return f"{seat_name(state, seat)} {verb if seat == state.seat else verb + 's'}"


def hand_text(
    hand: list[str], legal: set[str], cursor: int | None, selected: set[str], active: bool
) -> Text:
    """The hand in one row: legal cards bright, the cursor reversed, a selection underlined."""
    text = Text()
    for i, code in enumerate(hand):
        extra = ""
        if active and code not in legal:
            extra = "dim"
        if code in selected:
            extra += " underline on dark_green"
        if cursor == i:
            extra += " reverse"
        text.append_text(card_text(code, extra))
        text.append(" ")
    return text


def deal_of(state: TableState, number: int) -> str:
    """ "deal 2 of 3" at a table of 3 deals (a deal dealt again keeps its number), else "deal 2"."""
    deals = state.table.options.deals if state.table is not None else None
    if deals is not None and number <= deals:
        return f"deal {number} of {deals}"
    return f"deal {number}"


def header_text(state: TableState) -> Text:
    view = state.view
    text = Text(f"Table {printable(state.table_id)}", style="bold")
    if view is not None:
        dealer = seat_name(state, view.dealer)
        text.append(f"   {deal_of(state, view.deal_number)}, dealer {dealer}")
        if view.taker is not None and view.contract is not None:
            text.append(f"   {seat_name(state, view.taker)}: {CONTRACTS[view.contract]}")
            if view.chelem:
                text.append(" (chelem announced)", style="bold red")
    totals = "  ".join(f"{seat_name(state, s)} {t:g}" for s, t in enumerate(state.totals))
    text.append(f"\nTotals: {totals}")
    return text


def seats_text(state: TableState) -> Text:
    """One line per seat: who, bid, cards left, tricks won; ``>`` marks the seat to act."""
    view = state.view
    text = Text()
    for seat in range(4):
        mark = ">" if view is not None and view.to_act == seat else " "
        line = Text(
            f"{mark} {seat_name(state, seat)[:14]:<14}", style="bold" if mark == ">" else ""
        )
        tag = ""
        if state.table is not None:
            info = state.table.seats[seat]
            tag = "AI" if info.occupant == "ai" else ""
            tag = "away" if info.occupant == "human" and not info.connected else tag
        line.append(f" {tag:<4}", style="cyan")
        if view is not None:
            bids = [CONTRACTS[b.contract] for b in view.bids if b.seat == seat]
            line.append(f" bid: {bids[0] if bids else '-':<12}")
            line.append(f" cards: {view.hand_sizes[seat]:>2}  tricks: {view.tricks_won[seat]}")
        text.append_text(line)
        text.append("\n")
    return text


def trick_text(state: TableState) -> Text:
    """The trick on the table, and the last one taken."""
    view = state.view
    text = Text()
    if view is None:
        return text
    if view.chien is not None and not view.tricks and view.phase != "play":
        text.append("Chien: ")
        for code in view.chien:
            text.append_text(card_text(code))
            text.append(" ")
        text.append("\n")
    trick = view.trick
    text.append("Trick: ")
    if trick is not None:
        for i, code in enumerate(trick.cards):
            text.append(f"{seat_name(state, (trick.leader + i) % 4)} ")
            text.append_text(card_text(code))
            text.append("   ")
    if view.tricks:
        last = view.tricks[-1]
        text.append(f"\nLast trick ({seat_name(state, last.winner or 0)} won): ")
        for code in last.cards:
            text.append_text(card_text(code))
            text.append(" ")
    if view.poignees:
        for shown in view.poignees:
            text.append(f"\n{seat_name(state, shown.seat)} showed a {shown.level} poignee: ")
            text.append(" ".join(card_label(c) for c in shown.cards))
    return text


def sheet_text(state: TableState, sheet: m.ScoreSheet) -> Text:
    """A score sheet (docs/RECORD.md) in a few lines."""
    if sheet.status == "cancelled":
        return Text(f"Deal cancelled ({sheet.reason}): no score.", style="bold")
    text = Text("Score sheet\n", style="bold underline")
    if sheet.taker is not None and sheet.contract is not None:
        made = "made" if sheet.made else "went down"
        text.append(
            f"{seat_name(state, sheet.taker)} ({CONTRACTS[sheet.contract]}) {made}: "
            f"{sheet.points:g} points with {sheet.bouts} bout(s), {sheet.target} needed\n"
        )
    for bonus in sheet.bonuses or []:
        text.append(f"  {bonus.kind.replace('_', ' ')} ({bonus.side}): {bonus.points:g}\n")
    scores = "  ".join(f"{seat_name(state, s)} {v:+g}" for s, v in enumerate(sheet.scores))
    text.append(f"Scores: {scores}")
    return text


def _cards(cards: list[str]) -> str:
    return " ".join(card_label(c) for c in cards)


def _discarded(state: TableState, e: m.DiscardEvent) -> str:
    shown = f" (trumps shown: {_cards(e.trumps)})" if e.trumps else ""
    return f"{seat_name(state, e.seat)} discarded{shown}."


# One line per kind of event worth a line in the log.
_LINES: dict[type, Callable[[TableState, Any], str | None]] = {
    m.DealStartedEvent: lambda s, e: (
        f"{deal_of(s, e.deal_number).capitalize()}, dealer: {seat_name(s, e.dealer)}."
    ),
    m.BidEvent: lambda s, e: f"{seat_name(s, e.seat)}: {CONTRACTS[e.contract]}",
    m.TakerEvent: lambda s, e: f"{says(s, e.seat, 'take')} the deal: {CONTRACTS[e.contract]}.",
    m.ChienEvent: lambda s, e: f"Chien: {_cards(e.cards)}",
    m.DiscardEvent: _discarded,
    m.ChelemEvent: lambda s, e: f"{says(s, e.seat, 'announce')} a chelem!" if e.announced else None,
    m.PoigneeEvent: lambda s, e: f"{says(s, e.seat, 'show')} a {e.level} poignee.",
    m.CardEvent: lambda s, e: f"{says(s, e.seat, 'play')} {card_label(e.card)}",
    m.TrickEvent: lambda s, e: f"Trick {e.number} to {seat_name(s, e.winner)}.",
    m.CancelledEvent: lambda s, e: f"Deal cancelled: {e.reason.replace('_', ' ')}.",
    m.TableOverEvent: lambda s, e: "Table over. Totals: " + ", ".join(f"{t:g}" for t in e.totals),
}


def event_line(state: TableState, event: object, now_ms: int | None = None) -> str | None:
    """A line for the log, or None for events not worth one; ``now_ms`` gives countdowns."""
    if isinstance(event, m.BetweenDealsEvent):
        return between_deals_line(state, event, now_ms)
    line = _LINES.get(type(event))
    return line(state, event) if line is not None else None


def between_deals_line(state: TableState, event: m.BetweenDealsEvent, now_ms: int | None) -> str:
    """When the next deal starts at the latest, and whom (other than you) it waits for."""
    others = [seat_name(state, s) for s in event.waiting_for if s != state.seat]
    waiting = f" Waiting for {', '.join(others)}." if others else ""
    deal = deal_of(state, event.next_deal_number).capitalize()
    if now_ms is None:
        return f"{deal} next.{waiting}"
    left = max(0, round((event.deadline_ms - now_ms) / 1000))
    return f"{deal} starts in {left} s at the latest.{waiting}"
