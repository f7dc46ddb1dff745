"""Outside ``engine/``, only ``engine`` itself is imported, and only its ``__all__`` is used.

The AI, the protocol, the server, the clients, the command line and the tests
outside ``tests/engine/`` import ``engine`` (``import engine``, ``from engine
import ...``) and use the names its ``__init__`` publishes, never a module
inside it (``engine.tricks``, ``engine.cards``) nor a name the package does
not export. The engine may then move code between its modules without
touching a caller, and what search needs (legal cards, make and unmake, the
cards that beat a trick, the taker's result) is asked of its public API. The
engine's own tests check its modules one by one and may reach inside.
``cli/bench/bitset_loop.py``, the yardstick that must share no code with the
engine, imports nothing of it.

Before issue 26 point 5, ``ai/`` imported ``engine.tricks.undo_play``,
``engine.scoring.taker_result``, ``engine.cards.*`` and more (``OLD_IMPORTS``).
"""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[2]
INSIDE = ("engine/", "tests/engine/")  # the engine and its own tests
PUBLIC = frozenset(engine.__all__)


def _python_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [ROOT / name for name in sorted(set(listed)) if not name.startswith(INSIDE)]


def _imports(tree: ast.AST) -> tuple[list[str], set[str]]:
    """The imports of the engine past its public API, and the names ``import engine`` binds."""
    found, aliases = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("engine."):
                    found.append(f"line {node.lineno}: import {alias.name}")
                elif alias.name == "engine":
                    aliases.add(alias.asname or "engine")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("engine."):
                found.append(f"line {node.lineno}: from {node.module} import ...")
            elif node.module == "engine":
                found += [
                    f"line {node.lineno}: from engine import {alias.name}, not in engine.__all__"
                    for alias in node.names
                    if alias.name not in PUBLIC
                ]
    return found, aliases


def reaches_inside(source: str) -> list[str]:
    """Each use in ``source`` of the engine past its public API, one line each."""
    tree = ast.parse(source)
    found, aliases = _imports(tree)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and node.attr not in PUBLIC
        ):
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}, not in engine.__all__")
    return found


def test_outside_the_engine_only_its_public_api_is_used() -> None:
    files = _python_files()
    assert len(files) > 200  # the whole tree was read, tests included
    found = [
        f"{path.relative_to(ROOT)} {mark}"
        for path in files
        for mark in reaches_inside(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "engine internals used outside engine/:\n" + "\n".join(found)


def test_every_public_name_is_there() -> None:
    missing = [name for name in engine.__all__ if not hasattr(engine, name)]
    assert missing == []


def test_search_is_in_the_public_api() -> None:
    """What ``ai`` searches with: legal cards, make / unmake, R12, the taker's result."""
    search = {"legal_cards", "play_card", "undo_play", "PlayUndo", "beating_cards"}
    search |= {"winning_position", "led_suit", "taker_result", "discard_rule", "HIGHER_OF"}
    assert search <= PUBLIC


# What ai/ imported before issue 26 point 5, and other ways past the public API.
OLD_IMPORTS = [
    "from engine.tricks import legal_cards, play_card, undo_play\n",
    "from engine.scoring import taker_result\n",
    "from engine.cards import SUIT_NAMES\n",
    "from engine.chien import discard_rule\n",
    "import engine.tricks\n",
    "import engine.tricks as tricks\n",
    "from engine import tricks\n",
    "from engine import _settle_trick\n",
    "import engine\nTRUMPS = engine.cards.TRUMPS\n",
    "import engine as game\nwon = game.tricks.winning_position([])\n",
]


@pytest.mark.parametrize("source", OLD_IMPORTS)
def test_a_reach_past_the_public_api_is_caught(source: str) -> None:
    assert reaches_inside(source)


def test_the_public_api_is_not_a_reach() -> None:
    source = (
        "import engine\n"
        "from engine import PETIT, Deal, legal_cards, play_card, taker_result, undo_play\n"
        "hand = engine.mask_of(engine.parse_cards(['T1']))\n"
        "deal.tricks.append(trick)  # another object's attribute named like a module\n"
    )
    assert reaches_inside(source) == []
