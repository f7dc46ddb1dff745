"""The browser client's state changes in one place (clients/web/store.js): no other module
assigns to the state or changes its collections in place. The table picture changes in
game.js's fold and a review in review.js's, both called by the store's actions."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
# Where the state is made (state.js), changed (store.js), and folded (game.js, review.js).
ALLOWED = {"state.js", "store.js", "game.js", "review.js"}
PATH = r"(?:\.\w+|\?\.\w+|\[[^\]\n]+\])"
# app.x = ..., app.x.y += ..., app.x++; and app.x.push(...), app.ui.selected.add(...)
ASSIGNED = re.compile(rf"\bapp{PATH}+\s*(?:[-+*/]?=(?!=)|\+\+|--)")
CHANGED = re.compile(rf"\bapp{PATH}+\.(?:push|pop|shift|unshift|splice|add|delete|clear|set)\(")
# The same through a name for a part of the state (const ui = app.ui; ui.reason = ...).
# (Not a field of another object: players.js's page.review is that page's own.)
PART = re.compile(
    r"(?<![.\w])(?:ui|lobby|table|deal|d|review)\.(?:\w+\.)*\w+\s*(?:[-+*/]?=(?!=)|\+\+|--)"
)


def changes(text: str) -> list[str]:
    lines = []
    for line in text.splitlines():
        code = line.split("//")[0]
        if ASSIGNED.search(code) or CHANGED.search(code) or PART.search(code):
            lines.append(line.strip())
    return lines


def test_only_the_store_changes_the_state() -> None:
    found = {
        path.name: changes(path.read_text())
        for path in sorted(WEB.glob("*.js"))
        if path.name not in ALLOWED
    }
    assert {name: lines for name, lines in found.items() if lines} == {}


def test_the_check_sees_a_change() -> None:
    for line in (
        "app.table = null;",
        "  app.ui.reason = t('x');",
        "app.lobby.pages += 1;",
        "app.ui.log.push(line);",
        "app.ui.selected.add(code);",
        "app.table.summary.options = options || {};",
        "ui.reason = null;",
        "d.trick = null;",
    ):
        assert changes(line) == [line.strip()], line
    for line in (
        "if (app.table === null) return;",
        "dispatch('tab', app.tab);",
        "saved.set('x', 1);",
        "page.review.open = true;",
    ):
        assert changes(line) == [], line
