"""One rule in one place: the rules of the game are written in ``engine/`` and nowhere else.

The bots, the server, the protocol, the clients and the command line ask the
engine (``engine.tricks``: ``legal_cards``, ``led_suit``, ``winning_position``;
``engine.cards``: ``SUIT_OF``, ``SUIT_MASK_OF``, ``RANK_OF``; ``engine.scoring``)
instead of working a rule out again. This test reads every Python file
outside ``engine/`` and ``tests/`` (tests hold independent oracles on purpose)
and fails on the marks a copied rule leaves: a function named after a rule,
suit arithmetic on card indices, the overtrump mask, the trick winner's key,
the scoring tables. ``cli/bench/bitset_loop.py``, the yardstick ``tarot bench
engine`` runs beside the engine, is the one exception: it must share no code
with the engine to measure it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
PACKAGES = ("ai", "cli", "clients", "protocol", "server")
EXCEPTIONS = {ROOT / "cli" / "bench" / "bitset_loop.py"}

# A function or method by one of these names (leading underscores aside) is a rule.
RULE_FUNCTIONS = {
    "card_points",
    "half_points",
    "highest_trump",
    "is_petit_sec",
    "led",
    "led_suit",
    "led_suit_mask",
    "legal_cards",
    "legal_plays",
    "taker_cards",
    "taker_result",
    "trick_winner",
    "trick_winner_position",
    "winning_position",
}
RULE_CODE = {
    "suit arithmetic on card indices (engine.cards.SUIT_OF, SUIT_MASK_OF, RANK_OF)": (
        r"-\s*22\s*\)\s*(//|%)\s*14\b|\b22\s*\+\s*14\s*\*"
    ),
    "the overtrump mask (R11: engine.tricks.legal_cards)": r">>\s*\(\s*\w+\s*\+\s*1\s*\)\s*<<",
    "the trick winner's key (R12: engine.tricks.winning_position)": r"\b100\s*\+\s*(card|c)\b",
    "the contract targets (R15: engine.scoring)": r"\b56\s*,\s*51\s*,\s*41\s*,\s*36\b",
    "the card points (R15: engine.cards.HALF_POINTS)": r"\b1\s*,\s*3\s*,\s*5\s*,\s*7\s*,\s*9\s*\)",
    "the multipliers (R16: engine.actions.Contract.multiplier)": (
        r"\(\s*0\s*,\s*1\s*,\s*2\s*,\s*4\s*,\s*6\s*\)"
    ),
}


def rule_marks(source: str) -> list[str]:
    """What in ``source`` looks like a rule written again, one line each."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name.lstrip("_") in RULE_FUNCTIONS:
                found.append(f"line {node.lineno}: def {node.name}, a rule of the engine")
    for number, line in enumerate(source.splitlines(), 1):
        code = line.split("#", 1)[0]
        for what, pattern in RULE_CODE.items():
            if re.search(pattern, code):
                found.append(f"line {number}: {what}: {line.strip()}")
    return found


def _sources() -> list[Path]:
    return sorted(
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if path not in EXCEPTIONS
    )


def test_no_rule_is_written_outside_the_engine() -> None:
    sources = _sources()
    assert len(sources) > 40  # the packages were found
    found = [
        f"{path.relative_to(ROOT)} {mark}"
        for path in sources
        for mark in rule_marks(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "rules written outside engine/:\n" + "\n".join(found)


# What this test would have caught: code that stood in ai/ before the engine exported it.
COPIED_RULES = [
    "def winning_position(trick):\n    return 0\n",
    "def _led(trick):\n    return -1\n",
    "class T:\n    def legal_cards(self):\n        return 0\n",
    "suit = 4 if card < 21 else (card - 22) // 14\n",
    "rank = (top - 22) % 14\n",
    "GROUP = tuple(-1 if c == 21 else (c - 22) // 14 for c in range(78))\n",
    "over = trumps >> (top + 1) << (top + 1)\n",
    "key = 100 + card\n",
    "TARGETS = (56, 51, 41, 36)\n",
    "POINTS = (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 5, 7, 9)\n",
    "MULTIPLIER = (0, 1, 2, 4, 6)[contract]\n",
]


@pytest.mark.parametrize("source", COPIED_RULES)
def test_a_copied_rule_is_caught(source: str) -> None:
    assert rule_marks(source)


def test_asking_the_engine_is_not_a_copy() -> None:
    source = (
        "from engine.cards import SUIT_OF\n"
        "from engine.tricks import led_suit, winning_position\n"
        "suit = SUIT_OF[card]  # not (card - 22) // 14 again\n"
        "position = winning_position(trick)\n"
        "points = (5, 7, 9)[min(length, 7) - 5]\n"
    )
    assert rule_marks(source) == []
