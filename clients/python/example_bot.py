"""A custom bot in 20 lines: ``tarot bot --table ID --policy clients.python.example_bot:Greedy``."""

from __future__ import annotations

from clients.python import Bot
from protocol.models import ContractCode, SeatView

RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]


def strength(card: str) -> int:
    """Trumps over suit cards, higher over lower; the Excuse lowest."""
    if card == "EX":
        return 0
    return 100 + int(card[1:]) if card.startswith("T") else 1 + RANKS.index(card[:-1])


class Greedy(Bot):
    name = "greedy"

    def bid(self, view: SeatView, bids: list[ContractCode]) -> ContractCode:
        trumps = sum(card.startswith("T") for card in view.hand)
        bouts = len({"T1", "T21", "EX"} & set(view.hand))
        return "garde" if trumps + 2 * bouts >= 12 and "garde" in bids else "pass"

    def play(self, view: SeatView, cards: list[str]) -> str:
        """Win the trick with the strongest card if it can, else throw the weakest."""
        on_table = view.trick.cards if view.trick else []
        best = max(cards, key=strength)
        if all(strength(best) > strength(card) for card in on_table):
            return best
        return min(cards, key=strength)
