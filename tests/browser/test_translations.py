"""Every string of the interface exists in each language, with the same placeholders:
a key missing in Dutch or French falls back to English in the middle of a translated page."""

from __future__ import annotations

import re

from .conftest import NewPlayer

COMPARE = """async () => {
    const { STRINGS } = await import("./i18n.js");
    const holes = (s) => [...s.matchAll(/\\{(\\w+)\\}/g)].map((m) => m[1]).sort().join(",");
    const out = {};
    for (const lang of Object.keys(STRINGS)) {
        const strings = STRINGS[lang];
        out[lang] = {
            missing: Object.keys(STRINGS.en).filter((k) => !(k in strings)),
            placeholders: Object.keys(STRINGS.en).filter(
                (k) => k in strings && holes(strings[k]) !== holes(STRINGS.en[k])
            ),
            unknown: Object.keys(strings).filter(
                (k) => !(k in STRINGS.en) && !(k.endsWith(".one") && k.slice(0, -4) in STRINGS.en)
            ),
        };
    }
    return out;
}"""


async def test_every_string_is_translated_with_the_same_placeholders(
    new_player: NewPlayer,
) -> None:
    player = await new_player()
    await player.open()
    found = await player.page.evaluate(COMPARE)
    assert set(found) == {"en", "nl", "fr"}
    for lang, holes in found.items():
        assert holes == {"missing": [], "placeholders": [], "unknown": []}, lang
    assert not player.errors, player.errors


PAIRS = """async () => {
    const { STRINGS } = await import("./i18n.js");
    return Object.keys(STRINGS.en).map((k) => [k, STRINGS.en[k], STRINGS.nl[k]]);
}"""
GAME = re.compile(r"\bgames?\b", re.IGNORECASE)
DEAL = re.compile(r"\bdeals?\b", re.IGNORECASE)
SPEL = re.compile(r"\bspel(len)?\b", re.IGNORECASE)
PARTIJ = re.compile(r"\bpartij(en)?\b", re.IGNORECASE)


async def test_dutch_says_partij_for_a_game_and_spel_for_a_deal(new_player: NewPlayer) -> None:
    """Dutch used "spel" for both (issue 15.12); and the Knight is "Paard" with the
    French "Cavalier" beside it, not "Cavaliers" beside "Cavalier (Paard)"."""
    player = await new_player()
    await player.open()
    pairs = await player.page.evaluate(PAIRS)
    wrong = []
    for key, english, dutch in pairs:
        game, deal = GAME.search(english), DEAL.search(english)
        if game and not deal and (SPEL.search(dutch) or not PARTIJ.search(dutch)):
            wrong.append((key, english, dutch))
        if deal and not game and PARTIJ.search(dutch):
            wrong.append((key, english, dutch))
    assert wrong == []
    rules = await player.page.evaluate(
        "async () => JSON.stringify((await import('./rules.js')).RULES)"
    )
    assert "Paarden (Cavaliers)" in rules and "Cavalier (Paard)" not in rules
    assert not player.errors, player.errors
