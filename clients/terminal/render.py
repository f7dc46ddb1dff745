"""The terminal's words for the game: cards, names, the hand, refusals, the log's lines.

Rich text built from the client's state (no I/O here; the panels around the
table are ``panels.py``'s). The terminal speaks English, with the seed's French
words for the game's things, accented as in English text: chien, poignée,
bout, garde, chelem, the Excuse, the Petit.

Cards keep their codes (docs/RECORD.md) with the suit's symbol: ``K♥``, ``10♠``;
trumps keep theirs, ``T1`` (the Petit) .. ``T21``, in yellow, so that a trump
never reads as a bare number; the Excuse is ``EX``; the Knight is the seed's
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
BOUT_NAMES = {"T1": "the Petit", "EX": "the Excuse"}
# Why a deal was cancelled (R3: a petit sec, the Petit as its only trump; R4: all passed).
REASONS = {"all_pass": "everyone passed", "petit_sec": "a petit sec"}
BONUSES = {"petit_au_bout": "petit au bout", "poignee": "poignée", "chelem": "chelem"}


def card_label(code: str) -> str:
    """A card in at most three cells: ``T21``, ``EX``, ``K♥``, ``C♠``, ``10♦``."""
    if code == "EX" or code.startswith("T"):
        return code
    rank = code[:-1]
    return RANKS.get(rank, rank) + SYMBOLS[code[-1]]


def card_name(code: str) -> str:
    """A card in a sentence: its label, and what it is when it is a bout other than T21.

    >>> card_name("T1"), card_name("EX"), card_name("T21"), card_name("NS")
    ('T1 (the Petit)', 'EX (the Excuse)', 'T21', 'C♠')
    """
    named = BOUT_NAMES.get(code)
    return f"{card_label(code)} ({named})" if named else card_label(code)


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 bout``, ``2 bouts``, ``0 bouts``.

    >>> plural(1, "deal"), plural(3, "deal"), plural(0, "bout")
    ('1 deal', '3 deals', '0 bouts')
    """
    return f"{count} {word if count == 1 else words or word + 's'}"


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


def _cards(cards: list[str]) -> str:
    return " ".join(card_label(c) for c in cards)


def _discarded(state: TableState, e: m.DiscardEvent) -> str:
    shown = f" (trumps shown: {_cards(e.trumps)})" if e.trumps else ""
    return f"{seat_name(state, e.seat)} discarded{shown}."


def reason_text(reason: str | None) -> str:
    return REASONS.get(reason or "", (reason or "no reason given").replace("_", " "))


def _scores(state: TableState, scores: list[m.Points], signed: bool) -> str:
    shown = (f"{v:+g}" if signed else f"{v:g}" for v in scores)
    return ", ".join(f"{seat_name(state, s)} {v}" for s, v in enumerate(shown))


def sheet_lines(state: TableState, sheet: m.ScoreSheet) -> list[str]:
    """The score sheet (docs/RECORD.md) for the log: what the taker made, the bonuses, the
    scores, one line each (the panel beside the seats shows it in short lines)."""
    if sheet.status == "cancelled":
        return [f"Deal cancelled ({reason_text(sheet.reason)}): no score."]
    lines = []
    if sheet.taker is not None and sheet.contract is not None and sheet.bouts is not None:
        made = "made it" if sheet.made else "went down"
        lines.append(
            f"Score sheet: {seat_name(state, sheet.taker)} ({CONTRACTS[sheet.contract]}) {made}"
            f" with {sheet.points:g} points and {plural(sheet.bouts, 'bout')},"
            f" {sheet.target} needed."
        )
    for bonus in sheet.bonuses or []:
        lines.append(f"  {BONUSES[bonus.kind]} ({bonus.side}): {bonus.points:+g}")
    lines.append(f"Scores: {_scores(state, sheet.scores, signed=True)}.")
    return lines


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
    m.PoigneeEvent: lambda s, e: f"{says(s, e.seat, 'show')} a {e.level} poignée.",
    m.CardEvent: lambda s, e: f"{says(s, e.seat, 'play')} {card_name(e.card)}",
    m.TrickEvent: lambda s, e: f"Trick {e.number} to {seat_name(s, e.winner)}.",
    m.CancelledEvent: lambda s, e: f"Deal cancelled: {reason_text(e.reason)}.",
    m.TableOverEvent: lambda s, e: f"Table over. Totals: {_scores(s, e.totals, signed=False)}.",
}


# The preset phrases (protocol: their codes), as this client says them, keys 1 to 8.
PRESET_WORDS = {
    "hello": "Hello!",
    "good_luck": "Good luck!",
    "well_played": "Well played!",
    "thanks": "Thanks!",
    "oops": "Oops!",
    "sorry": "Sorry!",
    "good_game": "Good game!",
    "bye": "Bye!",
}


def preset_of_key(key: str | None) -> m.PresetCode | None:
    """The preset a digit key says (1: hello ... 8: bye), or None."""
    codes = list(PRESET_WORDS)
    if key is None or len(key) != 1 or not "1" <= key <= str(len(codes)):
        return None
    code = codes[int(key) - 1]
    return code if code in m.PRESET_CODES else None  # type: ignore[return-value]


def chat_line(event: m.ChatEvent) -> str:
    """A chat message: ``Name: words`` (a spectator's marked); printed through ``printable``."""
    words = PRESET_WORDS.get(event.preset or "", event.preset) if event.preset else event.text
    who = f"{event.name} (watching)" if event.seat is None else event.name
    return f"{who}: {words or ''}"


def ratings_line(state: TableState, event: m.RatingsEvent) -> str:
    changes = ", ".join(f"{c.name} {c.before:.0f} -> {c.after:.0f}" for c in event.changes)
    return f"Ratings after {deal_of(state, event.deal_number)}: {changes}."


def rematch_line(state: TableState, event: m.RematchEvent, now_ms: int | None = None) -> str:
    said = ", ".join(seat_name(state, s) for s in event.accepted) or "nobody yet"
    if event.timed_out:
        silent = ", ".join(seat_name(state, s) for s in event.timed_out)
        return (
            f"Rematch at table {event.table_id} closed: {said} accepted, no answer from {silent}."
        )
    declined = ", ".join(seat_name(state, s) for s in event.declined)
    no = f"; {declined} declined" if declined else ""
    ends = ""
    if now_ms is not None and event.deadline_ms is not None:  # open: when it closes
        ends = f" The offer ends in {max(0, round((event.deadline_ms - now_ms) / 1000))} s."
    return f"Rematch at table {event.table_id}: {said} accepted{no}.{ends}"


def event_line(state: TableState, event: object, now_ms: int | None = None) -> str | None:
    """A line for the log, or None for events not worth one; ``now_ms`` gives countdowns."""
    if isinstance(event, m.BetweenDealsEvent):
        return between_deals_line(state, event, now_ms)
    if isinstance(event, m.ChatEvent):
        return chat_line(event)
    if isinstance(event, m.RatingsEvent):
        return ratings_line(state, event)
    if isinstance(event, m.RematchEvent):
        return rematch_line(state, event, now_ms)
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
