"""The look is split by view (clients/web/css/): each page links stylesheets that exist,
every stylesheet is linked by a page, and both pages share the same first ones in the
same order, so that a rule means the same on the game page and the players page."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
SHARED = ["css/base.css", "css/header.css", "css/controls.css"]


def linked(page: str) -> list[str]:
    return re.findall(r'<link rel="stylesheet" href="([^"]+)">', (WEB / page).read_text())


def test_every_stylesheet_linked_exists_and_every_stylesheet_is_linked() -> None:
    pages = {page: linked(page) for page in ("index.html", "players.html")}
    for page, sheets in pages.items():
        assert sheets, page
        assert all((WEB / sheet).is_file() for sheet in sheets), (page, sheets)
        assert len(set(sheets)) == len(sheets), page
    used = {sheet for sheets in pages.values() for sheet in sheets}
    on_disk = {f"css/{path.name}" for path in (WEB / "css").glob("*.css")}
    assert used == on_disk
    assert not (WEB / "style.css").exists()


def test_both_pages_start_with_the_shared_sheets_and_end_with_the_screen_overrides() -> None:
    for page in ("index.html", "players.html"):
        sheets = linked(page)
        assert sheets[:3] == SHARED, page
        assert sheets.index("css/phone.css") < sheets.index("css/wide.css"), page
        last = ("css/phone.css", "css/wide.css", "css/players.css")
        views = [s for s in sheets if s not in (*SHARED, *last)]
        assert all(sheets.index(v) < sheets.index("css/phone.css") for v in views), page
