"""Issue 14.7: names are refused or cleaned at the server, so every client can show them.

Before, a player's name could carry an OSC 52 escape (a clipboard write) that
``tarot play`` wrote raw into a watcher's terminal.
"""

from __future__ import annotations

import json
import unicodedata

import pytest

from protocol import models as m
from protocol.errors import BadName
from protocol.names import PLAYER_NAME_MAX, REFUSED_CATEGORIES, clean_name, sanitize
from protocol.skeletons import name_skeleton, prototypes, skeleton
from server.history.schema import NAME_SKELETON_MAX

from ..server.wire import WireClient
from .conftest import Start, ws_url

REFUSED = [
    "evil\x1b]52;c;cm0gLXJmIH4=\x07",  # OSC 52: write the watcher's clipboard
    "\x1b[2J\x1b[Hhello",  # clear the screen
    "Bob\u202egnp.exe",  # a right-to-left override reverses what follows
    "in\u200bvisible",  # a zero-width space
    "two\u2028lines",  # a line separator
    "tab\there",
    "del\x7f",
    "c1\x9b31m",  # C1 control (CSI)
    "private\ue000",
    "Z" + "\u0301" * 8,  # zalgo
    "\u3164",  # a Hangul filler: a letter drawn as nothing (issue 27.11)
    "Ann\u3164",  # ... that makes a name look like another
    "Ma\u034frie",  # a combining grapheme joiner
    "x" * 61,  # too long for a player (40) and a table (60)
]


@pytest.mark.parametrize("name", REFUSED)
async def test_a_name_with_control_or_invisible_characters_is_refused(
    node: Start, name: str
) -> None:
    app = await node()
    host = await WireClient.open(ws_url(app))
    created = await host.request({"type": "create_table"}, "table_created")
    table_id = created["table"]["table_id"]
    await host.send({"type": "join", "table_id": table_id, "name": name, "id": 7})
    refused = await host.until(lambda m: m["type"] == "error")
    assert refused["re"] == 7
    assert refused["code"] in ("bad_name", "invalid_message")  # too long: the schema's
    if refused["code"] == "bad_name":
        assert "U+" in refused["message"] or "marks" in refused["message"]
    assert all(s.occupant == "empty" for s in app.node.runtimes[table_id].data.seats)
    await host.send({"type": "create_table", "options": {"name": name}})
    assert (await host.until(lambda m: m["type"] == "error"))["code"] in (
        "bad_name",
        "invalid_message",
    )
    assert len(app.node.runtimes) == 1


async def test_names_are_normalised_before_anyone_sees_them(node: Start) -> None:
    app = await node()
    host = await WireClient.open(ws_url(app))
    created = await host.request(
        {"type": "create_table", "options": {"name": "  Ｆｒｉｄａｙ\u00a0\u00a0night "}},
        "table_created",
    )
    assert created["table"]["options"]["name"] == "Friday night"
    table_id = created["table"]["table_id"]
    watcher = await WireClient.open(ws_url(app))
    await watcher.request({"type": "watch", "table_id": table_id}, "watching")
    await host.request({"type": "join", "table_id": table_id, "name": " ﬁfi  Ｊｅａｎ "}, "joined")
    seat = await watcher.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "seat")
    assert seat["event"]["seat"]["name"] == "fifi Jean"
    assert app.node.runtimes[table_id].data.seats[0].name == "fifi Jean"


def test_clean_name_keeps_letters_of_every_script_and_says_what_it_refuses() -> None:
    assert clean_name("Zoë Ñandú 王小明 Ελένη", 40) == "Zoë Ñandú 王小明 Ελένη"
    assert clean_name("e\u0301", 40) == "é"  # NFKC composes
    with pytest.raises(BadName, match=r"U\+001B\) at position 5"):
        clean_name("evil\x1b]52;c;x\x07", 40)
    with pytest.raises(BadName, match="at most 40"):
        clean_name("ﷺ" * 3, 40)  # one character that NFKC makes 18


def test_a_table_stored_before_the_rules_still_loads_its_names_made_showable() -> None:
    """A Redis node upgraded under old tables: one bad name must not break its lobby."""
    from server.table.data import TableData

    stored = TableData(table_id="old", options=m.TableOptions()).model_dump(mode="json")
    stored["options"]["name"] = "evil\x1b]52;c;aGk=\x07"
    stored["seats"][1] = {**stored["seats"][1], "occupant": "human", "name": "Bob\u202egnp"}
    loaded = TableData.model_validate_json(json.dumps(stored))
    assert loaded.options.name == "evil\ufffd]52;c;aGk=\ufffd"
    assert loaded.seats[1].name == "Bob\ufffdgnp"
    assert loaded.summary().options.name == loaded.options.name


def test_letters_drawn_as_nothing_are_refused_and_variation_selectors_dropped() -> None:
    """Issue 27.11: Unicode's Default_Ignorable_Code_Point that are letters or marks (not
    format characters, refused already) passed: "\u3164" made a name that looks empty."""
    for invisible in ("\u3164", "\uffa0", "\u115f", "\u1160", "\u034f", "\u17b4"):
        with pytest.raises(BadName, match=rf"U\+{ord(invisible):04X}\) at position 2"):
            clean_name(f"A{invisible}nn", 40)
    assert clean_name("Zoé \u2764\ufe0f", 40) == "Zoé \u2764"
    assert clean_name("\u1820\u180b\u1821", 40) == "\u1820\u1821"  # Mongolian's too
    assert sanitize("Ann\u3164", 40) == "Ann\ufffd"  # a stored one is marked


def test_the_confusables_table_is_unicodes_and_its_skeletons_fit_the_accounts_column() -> None:
    """``protocol/confusables.txt``: UTS #39's table (5,247 characters that NFD keeps),
    mapping what TS #39 says; no character's name skeleton is longer than 8, so a name of
    40 characters fits ``accounts.name_skeleton`` (320)."""
    table = prototypes()
    assert len(table) == 5247
    pairs = {"\u0430": "a", "\u041c": "M", "\u03bf": "o", "m": "rn", "1": "l", "I": "l", "0": "O"}
    assert {c: table[ord(c)] for c in pairs} == pairs
    assert skeleton("Ｍаrie") == "Marie"
    longest = max(
        len(name_skeleton(c))
        for c in map(chr, range(0x110000))
        if unicodedata.category(c) not in REFUSED_CATEGORIES
        and unicodedata.normalize("NFKC", c) == c
    )
    assert longest <= 8 and PLAYER_NAME_MAX * 8 <= NAME_SKELETON_MAX
