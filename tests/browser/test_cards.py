"""Card faces: the Marseille court cards are portraits (King, Queen, Knight, Jack), one
figure per rank tinted by suit; numbered cards, trumps and the Excuse are not, and the
French faces keep their emblems. The names a screen reader says do not change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import NewPlayer
from .player import Player

FIGURES = {"K": "king", "Q": "queen", "N": "knight", "J": "jack"}
EMBLEMS = {"K": "#sym-crown", "Q": "#sym-tiara", "N": "#sym-horse", "J": "#sym-cap"}
SUITS = "SHDC"
RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]
DECK = [f"{rank}{suit}" for suit in SUITS for rank in RANKS] + [
    *(f"T{n}" for n in range(1, 22)),
    "EX",
]
# The rank letter in the corners, by language (as before the portraits).
CORNER = {
    "en": {"K": "K", "Q": "Q", "N": "C", "J": "J"},
    "fr": {"K": "R", "Q": "D", "N": "C", "J": "V"},
    "nl": {"K": "K", "Q": "D", "N": "P", "J": "B"},
}
NAMES = {
    ("en", "marseille"): {"KH": "King of Cups", "NS": "Knight of Swords", "JC": "Jack of Batons"},
    ("fr", "marseille"): {"KH": "Roi de Coupe", "QD": "Dame de Denier", "JS": "Valet d’Épée"},
    ("nl", "marseille"): {"KH": "Bekers koning", "NC": "Staven paard", "JD": "Munten boer"},
    ("en", "french"): {"KH": "King of Hearts", "QS": "Queen of Spades", "NC": "Knight of Clubs"},
}

# Every card drawn by the page's own modules, as the hand draws them (cardview.js).
RENDER = """async ([codes, lang, face]) => {
    const view = await import('./cardview.js');
    const ctx = {lang, face};
    const cards = codes.map(code => view.cardHTML(code, ctx, {button: true}).text).join('');
    document.querySelector('#view-table').innerHTML =
        `<div id="hand"><div class="hand-cards wrap" data-mode="view">${cards}</div></div>`;
    return true;
}"""
FACES = """els => els.map(e => {
    const court = e.querySelector('.court');
    const figure = court && court.querySelector('use[href^="#fig-"]');
    const box = figure ? figure.getBoundingClientRect() : null;
    return {
        code: e.dataset.card,
        label: e.getAttribute('aria-label'),
        figure: court ? court.dataset.figure : null,
        figures: e.querySelectorAll('[data-figure]').length,
        href: figure ? figure.getAttribute('href') : null,
        colour: figure ? figure.style.color : null,
        symbols: court ? [...court.querySelectorAll('use[href^="#sym-"]')]
            .map(u => u.getAttribute('href')) : [],
        uses: [...e.querySelectorAll('use')].map(u => u.getAttribute('href')),
        corner: e.querySelector('svg text').textContent,
        size: box ? [box.width, box.height] : null,
    };
})"""


async def faces(player: Player, selector: str) -> dict[str, dict[str, Any]]:
    shown = await player.page.locator(selector).evaluate_all(FACES)
    return {f["code"]: f for f in shown}


async def suit_colours(player: Player) -> dict[str, str]:
    colours = await player.page.evaluate(
        """async () => {
            const m = await import('./cards.js');
            const probe = document.createElement('span');
            document.body.append(probe);
            const out = {};
            for (const s of ['S', 'H', 'D', 'C']) {
                probe.style.color = m.SUIT_COLOURS[s];
                out[s] = probe.style.color;
            }
            probe.remove();
            return out;
        }"""
    )
    return dict(colours)


def check_marseille(shown: dict[str, dict[str, Any]], colours: dict[str, str]) -> None:
    """Courts carry the figure of their rank tinted by suit; no other card has one."""
    for code, face in shown.items():
        rank, suit = code[:-1], code[-1]
        if code[0] == "T" or code == "EX" or rank not in FIGURES:
            assert face["figure"] is None and face["figures"] == 0, face
            continue
        assert face["figure"] == FIGURES[rank] and face["figures"] == 1, face
        assert face["href"] == f"#fig-{FIGURES[rank]}", face
        assert face["colour"] == colours[suit], face
        assert face["symbols"] == [f"#sym-marseille-{suit}"], "the suit's symbol in the hand"
        assert not any(u in EMBLEMS.values() for u in face["uses"]), face


@pytest.mark.timeout(60)
async def test_the_lobby_fan_shows_portraits_in_marseille_and_emblems_in_french(
    new_player: NewPlayer,
) -> None:
    player = await new_player()
    await player.open()
    fan = ".hero-fan [data-figure]"
    figures = await player.page.locator(fan).evaluate_all("els => els.map(e => e.dataset.figure)")
    assert figures == ["king", "queen"]  # the fan holds KH and QS
    # The shared figures are in the sprite once, and stay light.
    sizes = await player.page.evaluate(
        """() => ['king', 'queen', 'knight', 'jack'].map(
            n => document.querySelector(`#card-sprite #fig-${n}`)?.outerHTML.length ?? 0)"""
    )
    assert all(0 < size < 3000 for size in sizes), sizes

    await player.choose("#face-select", "french")
    assert await player.page.locator(fan).count() == 0
    hrefs = await player.page.locator(".hero-fan use").evaluate_all(
        "els => els.map(e => e.getAttribute('href'))"
    )
    assert "#sym-crown" in hrefs and "#sym-tiara" in hrefs and "#sym-french-H" in hrefs
    assert not any(h.startswith("#fig-") for h in hrefs)
    await player.page.reload()
    await player.page.wait_for_selector(".hero-fan")
    assert await player.page.locator(fan).count() == 0

    await player.choose("#face-select", "marseille")
    figures = await player.page.locator(fan).evaluate_all("els => els.map(e => e.dataset.figure)")
    assert figures == ["king", "queen"]
    assert not player.errors


@pytest.mark.timeout(60)
async def test_every_court_has_the_figure_of_its_rank_and_keeps_its_name_and_corner(
    new_player: NewPlayer, artifacts: Path
) -> None:
    player = await new_player(width=1280, height=900)
    await player.open()
    colours = await suit_colours(player)
    for lang in ("nl", "fr", "en"):
        await player.page.evaluate(RENDER, [DECK, lang, "marseille"])
        shown = await faces(player, "#hand .card")
        assert list(shown) == DECK
        check_marseille(shown, colours)
        courts = [f for f in shown.values() if f["figure"]]
        assert len(courts) == 16
        assert {f["figure"] for f in courts} == set(FIGURES.values())  # four distinct figures
        for face in courts:
            assert face["corner"] == CORNER[lang][face["code"][:-1]], face
            width, height = face["size"]
            assert width > 20 and height > 40, face  # the figure is drawn, not an empty use
        for code, name in NAMES[(lang, "marseille")].items():
            assert shown[code]["label"] == name
    await player.page.screenshot(path=str(artifacts / "cards-marseille.png"))

    await player.page.evaluate(RENDER, [DECK, "en", "french"])
    shown = await faces(player, "#hand .card")
    for code, face in shown.items():
        assert face["figures"] == 0, face
        if code[:-1] in EMBLEMS and code[0] != "T":
            assert EMBLEMS[code[:-1]] in face["uses"], face
            assert face["corner"] == CORNER["en"][code[:-1]]
    for code, name in NAMES[("en", "french")].items():
        assert shown[code]["label"] == name
    await player.page.screenshot(path=str(artifacts / "cards-french.png"))
    assert not player.errors


@pytest.mark.timeout(90)
async def test_a_dealt_hand_switches_between_portraits_and_emblems(
    new_player: NewPlayer, artifacts: Path
) -> None:
    player = await new_player()
    await player.open()
    colours = await suit_colours(player)
    await player.page.click("[data-action=quick-start]")
    await player.page.wait_for_function(
        "() => document.querySelectorAll('#hand .card').length === 18"
    )
    dealt = player.events("hand")[-1]["cards"]
    shown = await faces(player, "#hand .card")
    assert sorted(shown) == sorted(dealt)
    check_marseille(shown, colours)
    courts = sorted(c for c in dealt if c[0] != "T" and c[:-1] in FIGURES)
    assert sorted(c for c, f in shown.items() if f["figure"]) == courts
    await player.screenshot(artifacts / "hand-marseille.png")

    await player.choose("#face-select", "french")
    await player.page.wait_for_function(
        "() => [...document.querySelectorAll('#hand .card use')]"
        ".some(u => u.getAttribute('href').startsWith('#sym-french-'))"
    )
    shown = await faces(player, "#hand .card")
    assert sorted(shown) == sorted(dealt)
    assert all(f["figures"] == 0 for f in shown.values())
    for code in courts:
        assert EMBLEMS[code[:-1]] in shown[code]["uses"]
        assert shown[code]["label"].endswith(
            {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}[code[-1]]
        )
    assert not player.errors
