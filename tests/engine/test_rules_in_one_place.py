"""One rule in one place: the rules of the game are written in ``engine/`` and nowhere else.

The bots, the server, the protocol, the clients and the command line ask the
engine (its public API: ``legal_cards``, ``led_suit``, ``winning_position``,
``beating_cards``, ``SUIT_OF``, ``SUIT_MASK_OF``, ``RANK_OF``, ``taker_result``)
instead of working a rule out again. This test reads every Python file
outside ``engine/`` and ``tests/`` (tests hold independent oracles on purpose)
and fails on the marks a copied rule leaves: a function named after a rule,
suit arithmetic on card indices, the overtrump mask, the trick winner's key,
the scoring tables, and R12's comparisons: the cards above a card as a mask,
a card tested for a trump and read for its suit in one function (the winner
is the highest trump, else the highest card of the suit led), trump ranks
compared with each other. ``cli/bench/bitset_loop.py``, the yardstick ``tarot
bench engine`` runs beside the engine, is the one exception: it must share no
code with the engine to measure it.

The first version missed R12 written again in ``ai/basic.py`` and
``ai/expert/play.py`` (``options & TRUMPS & ~((1 << (top + 1)) - 1)`` when
``top < 21``, else the higher cards of ``SUIT_MASK_OF[top]``) and in
``ai/knowledge.py`` (the suit led and the highest trump read card by card);
issue 26 point 5 widened it. Run on that code, it lists them (see
``OLD_AI_R12`` below).
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
    # (1 << (top + 1)) - 1, (2 << top) - 1, (1 << top) - 1, -(2 << top): every card
    # index below (or above) a card, which is its rank order within a suit (R12).
    "the cards above or below a card (R12: engine.beating_cards)": (
        r"\(\s*(1\s*<<\s*\(\s*[A-Za-z_]\w*\s*\+\s*1\s*\)|[12]\s*<<\s*[A-Za-z_]\w*)\s*\)"
        r"\s*-\s*1\b|-\s*\(\s*2\s*<<\s*[A-Za-z_]\w*\s*\)"
    ),
}
# The first card index past the trumps (0..20): ``card < 21`` asks "is it a trump?".
TRUMP_BOUNDS = {20, 21}
SUIT_TABLES = {"SUIT_OF", "SUIT_MASK_OF", "SUIT_MASKS"}
ORDERS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _trump_tested(function: ast.AST) -> set[str]:
    """The names ``function`` compares with the trumps' bound (``card < 21``)."""
    names = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right = node.left, node.comparators[0]
            for name, other in ((left, right), (right, left)):
                if (
                    isinstance(name, ast.Name)
                    and isinstance(other, ast.Constant)
                    and other.value in TRUMP_BOUNDS
                ):
                    names.add(name.id)
    return names


def _suit_read(function: ast.AST) -> set[str]:
    """The names ``function`` looks up in a per-card suit table (``SUIT_MASK_OF[top]``)."""
    return {
        node.slice.id
        for node in ast.walk(function)
        if isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id in SUIT_TABLES
        and isinstance(node.slice, ast.Name)
    }


def _ordered_pairs(function: ast.AST) -> set[str]:
    """The names ``function`` orders against another name (``card > top``, ``max(top, card)``)."""
    names = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ORDERS):
            sides = [node.left, node.comparators[0]]
            if all(isinstance(side, ast.Name) for side in sides):
                names |= {side.id for side in sides if isinstance(side, ast.Name)}
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in ("max", "min") and len(node.args) == 2 and not node.keywords:
                if all(isinstance(arg, ast.Name) for arg in node.args):
                    names |= {arg.id for arg in node.args if isinstance(arg, ast.Name)}
    return names


def _r12_marks(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """R12 worked out in ``function``: trumps or the suit led, trump ranks compared."""
    found = []
    trumps = _trump_tested(function)
    for name in sorted(trumps & _suit_read(function)):
        found.append(
            f"line {function.lineno}: {function.name} tests {name} for a trump and reads its "
            "suit, the trick winner's rule (R12: engine.winning_position, beating_cards)"
        )
    for name in sorted(trumps & _ordered_pairs(function)):
        found.append(
            f"line {function.lineno}: {function.name} tests {name} for a trump and orders it "
            "against another card, trump ranks compared (R12: engine.beating_cards)"
        )
    return found


def rule_marks(source: str) -> list[str]:
    """What in ``source`` looks like a rule written again, one line each."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name.lstrip("_") in RULE_FUNCTIONS:
                found.append(f"line {node.lineno}: def {node.name}, a rule of the engine")
            found += _r12_marks(node)
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
    "above = TRUMPS & ~((2 << top) - 1)\n",
    "below = (1 << top) - 1\n",
    "above = -(2 << top)\n",
]

# R12 as the old ai/ wrote it, past the first version of this test (issue 26 point 5).
OLD_AI_R12 = {
    "ai/basic.py": (
        "def _winning_cards(options: int, trick: list[int], top: int) -> int:\n"
        "    if top < 21:\n"
        "        return options & TRUMPS & ~((1 << (top + 1)) - 1)\n"
        "    same_suit = options & SUIT_MASK_OF[top]\n"
        "    if same_suit:\n"
        "        return same_suit & ~((1 << (top + 1)) - 1)\n"
        "    return options & TRUMPS\n"
    ),
    "ai/expert/play.py": (
        "def _beaters(options: int, top: int) -> int:\n"
        "    if top < 21:\n"
        "        return options & TRUMPS & ~((2 << top) - 1)\n"
        "    same = options & SUIT_MASK_OF[top]\n"
        "    if same:\n"
        "        return same & ~((2 << top) - 1)\n"
        "    return options & TRUMPS\n"
    ),
    "ai/knowledge.py": (
        "def _read_trick(k, leader, cards):\n"
        "    led = -1\n"
        "    top = -1\n"
        "    for position, card in enumerate(cards):\n"
        "        if card == EXCUSE:\n"
        "            continue\n"
        "        suit = SUIT_OF[card]\n"
        "        if card < 21:\n"
        "            if card < top:\n"
        "                k.trump_cap[player] &= (1 << top) - 1\n"
        "            top = max(top, card)\n"
    ),
    "a trump test beside its suit, no mask": (
        "def winner_key(card, led):\n"
        "    if card < 21:\n"
        "        return 1\n"
        "    return 0 if SUIT_OF[card] == led else -1\n"
    ),
    "the highest trump, no mask": (
        "def top_trump(trick):\n"
        "    best = -1\n"
        "    for card in trick:\n"
        "        if card < 21 and card > best:\n"
        "            best = card\n"
        "    return best\n"
    ),
}


@pytest.mark.parametrize("source", COPIED_RULES)
def test_a_copied_rule_is_caught(source: str) -> None:
    assert rule_marks(source)


@pytest.mark.parametrize("where", OLD_AI_R12)
def test_R12_as_the_old_ai_wrote_it_is_caught(where: str) -> None:
    assert rule_marks(OLD_AI_R12[where])


def test_a_bot_judging_a_card_is_not_a_copy() -> None:
    """Judgement reads trumps and ranks too: a high trump is "sure", trumps are dear."""
    source = (
        "def is_sure(card):\n"
        "    return (1 << card) & KINGS != 0 or (card < 21 and card >= 15)\n"
        "def cheap_key(card):\n"
        "    return (HALF_POINTS[card], RANK_OF[card] + (30 if card < 21 else 0))\n"
        "def master(t, card):\n"
        "    return not beating_cards((card,), t.unseen) & SUIT_MASK_OF[card]\n"
    )
    assert rule_marks(source) == []


def test_asking_the_engine_is_not_a_copy() -> None:
    source = (
        "from engine import SUIT_OF, beating_cards, led_suit, winning_position\n"
        "suit = SUIT_OF[card]  # not (card - 22) // 14 again\n"
        "position = winning_position(trick)\n"
        "winners = beating_cards(trick, options)\n"
        "points = (5, 7, 9)[min(length, 7) - 5]\n"
    )
    assert rule_marks(source) == []
