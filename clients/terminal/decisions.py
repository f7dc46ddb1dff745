"""What the player decides now, from the seat's state: the prompt, the choices, the cards.

Pure functions of ``client.state`` and of what the keyboard chose so far (no
I/O, no rule: every choice offered is one of the ``your_turn``'s legal ones).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text

from clients.python import TableState
from clients.python.printable import printable
from protocol import models as m

from . import render

BID_LABELS = render.CONTRACTS
CHOOSING_CARDS = frozenset({"play", "discard", "poignee_cards"})  # the cursor is on the hand


def poignee_pool(hand: list[str], offer: m.PoigneeChoice | None) -> list[str]:
    """The cards to choose a poignee from, for display: the hand's trumps and Excuse, and
    whatever the offer holds (Kings, under R9). The server says which subsets are valid."""
    offered = set(offer.cards) if offer is not None else set()
    return [c for c in hand if c.startswith("T") or c == "EX" or c in offered]


def swap_poignee_card(
    selected: set[str], card: str, hand: list[str], offer: m.PoigneeChoice | None
) -> set[str]:
    """Space on ``card`` while choosing a poignee: drop it, or add it if there is room."""
    if offer is None or card not in poignee_pool(hand, offer):
        return selected
    if card in selected:
        return selected - {card}
    return selected | {card} if len(selected) < offer.size else selected


@dataclass(slots=True)
class Decision:
    """What the keyboard is choosing now: ``kind`` and, for a list of choices, their labels."""

    kind: str  # wait, bid, discard, chelem, poignee, poignee_cards, play, next, over
    options: list[str] = field(default_factory=list)
    prompt: str = ""


def decision_for(
    state: TableState | None,
    declined_poignee: bool,
    awaiting_next: bool,
    poignee: m.PoigneeChoice | None = None,
) -> Decision:
    """The decision the player faces, from the latest ``your_turn`` (if current).

    ``poignee`` is the offer whose trumps the player is choosing, if any.
    """
    if state is None:
        return Decision("wait", prompt="Connecting...")
    if state.over:
        return Decision("over", prompt=_over_prompt(state))
    if state.seat is None:
        return Decision("wait", prompt="Watching (public information only). Press q to quit.")
    if state.legal is None:
        return _waiting(state, awaiting_next)
    return _choosing(state.legal, declined_poignee, poignee)


def _over_prompt(state: TableState) -> str:
    """A finished table: the seat may answer the rematch offer while it is open (a decline
    may still become an accept; an accept moves the client to the new table)."""
    offer = state.rematch
    closed = offer is not None and (offer.started or bool(offer.timed_out))
    if state.seat is None or closed:
        return "The table is over. Press q to quit."
    if offer is not None and state.seat in offer.declined:
        return "You declined the rematch. Press r to accept after all, q to quit."
    return "The table is over. Press r for a rematch, d to decline, q to quit."


def _waiting(state: TableState, awaiting_next: bool) -> Decision:
    if awaiting_next:
        return Decision("next", prompt="Deal over. Press n (or Enter) for the next deal.")
    if state.table is not None and state.table.status == "waiting":
        return Decision("wait", prompt="Waiting for players. Press s to start with AI.")
    return Decision("wait", prompt="Waiting for the other players...")


def _choosing(
    legal: m.LegalChoices, declined_poignee: bool, poignee: m.PoigneeChoice | None
) -> Decision:
    if legal.bids:
        labels = [BID_LABELS[b] for b in legal.bids]
        return Decision("bid", labels, "Your bid (←/→, Enter):")
    if legal.discard is not None:
        count = legal.discard.count
        return Decision("discard", prompt=f"Discard {count} cards (Space to select, Enter).")
    if legal.chelem:
        return Decision("chelem", ["no chelem", "announce a chelem"], "Chelem? (←/→, Enter):")
    if legal.poignees and poignee is not None and poignee in legal.poignees:
        return Decision(
            "poignee_cards",
            prompt=f"{poignee.level.capitalize()} poignée, {poignee.size} trumps"
            " (Space swaps, Enter shows).",
        )
    if legal.poignees and not declined_poignee:
        offers = [f"{o.level} ({o.size})" for o in legal.poignees]  # its trumps
        return Decision("poignee", ["none", *offers], "Show a poignée? (←/→, Enter):")
    return Decision("play", prompt="Your card (←/→, Enter):")


def prompt_text(decision: Decision, option: int, selected: int, error: str) -> Text:
    """The prompt line: the question, the choice under the cursor, the last refusal."""
    text = Text(decision.prompt + " ")
    if decision.kind in ("discard", "poignee_cards"):
        text.append(f"{selected} selected.", style="bold")
    for i, label in enumerate(decision.options):
        text.append(f" {label} ", style="reverse bold" if i == option else "")
        text.append(" ")
    if error:
        text.append(f"\n{printable(error)}", style="bold red")
    return text


def hand_of(
    hand: list[str],
    legal: m.LegalChoices | None,
    decision: Decision,
    poignee: m.PoigneeChoice | None,
) -> set[str]:
    """The cards of the hand drawn bright for this decision (the others dim)."""
    if decision.kind == "discard" and legal is not None and legal.discard is not None:
        return set(legal.discard.allowed)
    if decision.kind == "poignee_cards":
        return set(poignee_pool(hand, poignee))
    return set(legal.cards) if legal is not None else set()
