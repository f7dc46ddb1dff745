"""Every string of the interface exists in each language, with the same placeholders:
a key missing in Dutch or French falls back to English in the middle of a translated page."""

from __future__ import annotations

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
