"""What the page looks like and says: three languages, the Full rules, the display
sliders, the card faces, and a 360 px wide phone."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import NewPlayer
from .player import Player

TEXTS = {
    "en": {
        "#tab-table": "Table",
        "#tab-rules": "Full rules",
        "[data-action=quick-start]": "4 players · You against 3 AI · Single deal",
        "label[for=slider-temperature] span": "Color temperature",
    },
    "nl": {
        "#tab-table": "Tafel",
        "#tab-rules": "Volledige regels",
        "[data-action=quick-start]": "4 spelers · Jij tegen 3 AI · Eén spel",
        "label[for=slider-temperature] span": "Kleurtemperatuur",
    },
    "fr": {
        "#tab-table": "Table",
        "#tab-rules": "Règles complètes",
        "[data-action=quick-start]": "4 joueurs · Vous contre 3 IA · Une donne",
        "label[for=slider-temperature] span": "Température de couleur",
    },
}
RULE_TITLES = {
    "en": ["Objective", "Setup", "Chien and discards", "Scoring and ending"],
    "nl": ["Doel", "Voorbereiding", "Chien en afleg", "Telling en einde"],
    "fr": ["Objectif", "Mise en place", "Chien et écart", "Décompte et fin"],
}


async def check_texts(player: Player, lang: str, lobby: bool = True) -> None:
    assert await player.page.get_attribute("html", "lang") == lang
    for selector, text in TEXTS[lang].items():
        if lobby or "quick-start" not in selector:
            assert await player.text(selector) == text, (lang, selector)


@pytest.mark.timeout(60)
async def test_the_language_switches_everything_and_is_remembered(
    new_player: NewPlayer, artifacts: Path
) -> None:
    player = await new_player()
    await player.open()
    await check_texts(player, "en")
    for lang in ("nl", "fr", "en", "nl"):
        await player.choose("#lang-select", lang)
        await check_texts(player, lang)
        await player.page.click("#tab-rules")
        titles = await player.page.locator(".rule-section h3").all_inner_texts()
        assert len(titles) == 8
        assert [titles[0], titles[1], titles[2], titles[7]] == RULE_TITLES[lang]
        await player.page.screenshot(path=str(artifacts / f"rules-{lang}.png"), full_page=False)
        await player.page.click("#tab-table")
    # The Dutch rules are correct Dutch, not the seed page's mistranslations.
    await player.page.click("#tab-rules")
    rules = await player.text(".rules")
    assert "vier Franse kleuren" not in rules and "Bekers, Zwaarden, Staven en Munten" in rules
    assert "(25 + het absolute verschil" in rules and "(25 + 4) × 2 = 58" in rules
    assert "Garde zonder" not in rules
    # Remembered: a reload comes back in Dutch, on the rules tab of the address.
    await player.page.reload()
    await player.page.wait_for_selector(".rules")
    await check_texts(player, "nl", lobby=False)
    assert await player.page.get_attribute("#tab-rules", "aria-selected") == "true"
    await player.choose("#lang-select", "fr")
    assert "Règles complètes" in await player.text(".rules h2")
    assert "(25 + la différence absolue" in await player.text(".rules")
    assert not player.errors


async def app_style(player: Player) -> dict[str, str]:
    return dict(
        await player.page.evaluate(
            """() => ({
                filter: getComputedStyle(document.getElementById('app')).filter,
                grain: getComputedStyle(document.getElementById('grain')).opacity,
                matrix: document.getElementById('temperature-matrix').getAttribute('values'),
            })"""
        )
    )


@pytest.mark.timeout(60)
async def test_the_display_sliders_change_the_look_and_are_remembered(
    new_player: NewPlayer, artifacts: Path
) -> None:
    player = await new_player()
    await player.open()
    await player.settings()  # the sliders are in the settings menu
    for key in ("contrast", "grain", "temperature"):
        assert await player.page.input_value(f"#slider-{key}") == "50"
        assert await player.text(f"#value-{key}") == "50%"
    neutral = await app_style(player)
    assert neutral["filter"] == "none"

    await player.page.fill("#slider-contrast", "80")
    after = await app_style(player)
    assert "contrast(1.24)" in after["filter"]
    await player.page.fill("#slider-contrast", "20")
    assert "contrast(0.76)" in (await app_style(player))["filter"]

    await player.page.fill("#slider-grain", "100")
    grain = await app_style(player)
    assert float(grain["grain"]) > float(neutral["grain"]) > 0
    await player.page.fill("#slider-grain", "0")
    assert float((await app_style(player))["grain"]) == 0

    await player.page.fill("#slider-temperature", "90")
    warm = await app_style(player)
    assert "url(" in warm["filter"] and warm["matrix"] != neutral["matrix"]
    red_gain, blue_gain = float(warm["matrix"].split()[0]), float(warm["matrix"].split()[12])
    assert red_gain > 1 > blue_gain
    assert await player.text("#value-temperature") == "90%"
    await player.screenshot(artifacts / "display-warm.png")

    await player.page.reload()
    await player.page.wait_for_selector("#conn[data-status=online]")
    assert await player.page.input_value("#slider-contrast") == "20"
    assert await player.page.input_value("#slider-grain") == "0"
    assert await player.page.input_value("#slider-temperature") == "90"
    again = await app_style(player)
    assert again["matrix"] == warm["matrix"] and float(again["grain"]) == 0
    assert "contrast(0.76)" in again["filter"] and "url(" in again["filter"]
    assert not player.errors


@pytest.mark.timeout(60)
async def test_card_faces_marseille_or_french_and_colours_by_suit(new_player: NewPlayer) -> None:
    player = await new_player()
    await player.open()
    uses = ".hero-fan use"
    hrefs = await player.page.locator(uses).evaluate_all("els => els.map(e => e.href.baseVal)")
    assert "#sym-marseille-H" in hrefs
    await player.choose("#face-select", "french")
    hrefs = await player.page.locator(uses).evaluate_all("els => els.map(e => e.href.baseVal)")
    assert "#sym-french-H" in hrefs and "#sym-marseille-H" not in hrefs
    await player.page.reload()
    await player.page.wait_for_selector(".hero-fan")
    assert await player.page.input_value("#face-select") == "french"
    # Four suits, four distinct colours (and shapes) for colour-blind players.
    colours = await player.page.evaluate(
        """async () => {
            const m = await import('./cards.js');
            return ['S', 'H', 'D', 'C'].map(s => m.SUIT_COLOURS[s]);
        }"""
    )
    assert len(set(colours)) == 4
    assert not player.errors


OVERFLOW = "() => document.getElementById('app').scrollWidth - window.innerWidth"
WIDEST_PLATE_AT = """async (seat) => {
    const render = await import('./render.js');
    const deal = window.cardavia.app.table.deal;
    [deal.taker, deal.contract] = [seat, 'garde_contre'];
    deal.tricksWon[seat] = 18;
    render.renderTable();
    const plate = document.querySelector(`.seat[data-seat="${seat}"] .plate`).innerText;
    return [document.getElementById('app').scrollWidth - window.innerWidth, plate];
}"""


@pytest.mark.timeout(90)
async def test_a_360_pixel_phone_shows_the_whole_table(
    new_player: NewPlayer, artifacts: Path
) -> None:
    player = await new_player(width=360, height=740)
    await player.open()
    await player.screenshot(artifacts / "lobby-360.png")
    await player.page.click("[data-action=quick-start]")
    await player.play_until(tricks=2, bid="garde")
    await player.settle()  # measured at rest: a card coming in from the right is drawn past it
    assert await player.page.evaluate(OVERFLOW) <= 0
    # The widest seat plates: each other seat in turn the taker of a garde contre with
    # 18 tricks (the page's own picture, redrawn by its own renderer).
    for seat in (1, 2, 3):
        overflow, plate = await player.page.evaluate(WIDEST_PLATE_AT, seat)
        assert "Garde contre" in plate and "18 tricks" in plate  # drawn as doctored
        assert overflow <= 0, f"seat {seat}"
    boxes = await player.page.locator("#hand .card").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).map(r => [r.left, r.right])"
    )
    assert boxes and all(left >= 0 and right <= 360 for left, right in boxes)
    seats = await player.page.locator("#seats .seat").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).map(r => [r.left, r.right])"
    )
    assert all(left >= 0 and right <= 360 for left, right in seats)
    await player.page.evaluate("document.getElementById('app').scrollTo(0, 0)")
    await player.screenshot(artifacts / "table-360.png")
    # The display settings fold behind a button on a phone.
    assert not await player.visible("#slider-grain")
    await player.page.click("#display-toggle")
    assert await player.visible("#slider-grain")
    assert not player.errors
