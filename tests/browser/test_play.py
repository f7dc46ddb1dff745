"""Playing in the browser against 3 AI: a whole deal by clicking, several deals, and
coming back after a reload or a lost connection."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ..deal_seeds import deal_from, ordinary, where
from .conftest import NewPlayer
from .player import Player, number

POINTS = {"K": 4.5, "Q": 3.5, "N": 2.5, "J": 1.5}


def card_points(code: str) -> float:
    if code in ("T1", "T21", "EX"):
        return 4.5
    if code.startswith("T"):
        return 0.5
    return POINTS.get(code[:-1], 0.5)


def cards_of_seat(record: dict[str, Any], winners: list[int], seat: int) -> list[str]:
    """The cards ``seat`` played, in order, from the record and the trick winners."""
    assert not record.get("chelem"), "with a chelem the taker would lead (R10)"
    leader = (record["dealer"] + 1) % 4
    out = []
    for k in range(18):
        trick = record["plays"][4 * k : 4 * k + 4]
        out += [c for i, c in enumerate(trick) if (leader + i) % 4 == seat]
        leader = winners[k]
    return out


async def become_taker(player: Player, attempts: int = 8) -> None:
    """Quick start until we can take with a garde (seat 0 bids last in deal 1) and keep it."""
    for _ in range(attempts):
        player.frames.clear()
        await player.page.click("[data-action=quick-start]")
        await player.page.wait_for_selector("#prompt [data-action=bid]", timeout=20000)
        offered = await player.page.locator("#prompt [data-action=bid]").evaluate_all(
            "els => els.map(e => e.dataset.arg)"
        )
        if "garde" in offered:
            await player.step(bid="garde")
            await player.page.wait_for_function(
                "() => window.cardavia.app.table.deal.taker !== null", timeout=20000
            )
            taker = player.events("taker")
            if taker and taker[-1]["seat"] == 0 and taker[-1]["contract"] == "garde":
                return
        await player.leave()
        await player.page.wait_for_selector("[data-action=quick-start]")
    raise AssertionError("could not take with a garde in any quick start")


async def test_the_ai_of_a_game_against_three_ai_is_chosen_and_remembered(
    new_player: NewPlayer,
) -> None:
    player = await new_player()
    await player.open()
    choice = player.page.locator("#quick-ai")
    assert await choice.input_value() == "expert"  # competent by default
    labels = await choice.locator("option").evaluate_all(
        "els => els.map(e => [e.value, e.textContent])"
    )
    assert labels == [["basic", "Basic"], ["expert", "Expert"], ["strong", "Strong"]]
    await choice.select_option("strong")
    await player.page.reload()
    await player.page.wait_for_selector("#conn[data-status=online]")
    assert await choice.input_value() == "strong"
    await player.page.click("[data-action=multi-start]")
    await player.page.wait_for_function(
        "() => window.cardavia.app.table?.summary?.options?.ai_level !== undefined"
    )
    (created,) = [f for f in player.frames if f.get("type") == "table_created"]
    assert (created["table"]["options"]["ai_level"], created["table"]["options"]["deals"]) == (
        "strong",
        5,
    )
    # A level no longer offered (or a stored value gone bad) falls back to expert.
    await player.page.evaluate("localStorage.setItem('cardavia.quickAi', '\"random\"')")
    await player.page.goto(player.url)
    await player.page.wait_for_selector("#conn[data-status=online]")
    await player.leave()
    assert await choice.input_value() == "expert"
    assert player.errors == []


@pytest.mark.timeout(180)
async def test_a_whole_deal_against_three_ai_by_clicking(
    new_player: NewPlayer, artifacts: Path
) -> None:
    player = await new_player()
    await player.open()
    assert await player.text("[data-action=quick-start]") == (
        "4 players · You against 3 AI · Single deal"
    )
    await player.screenshot(artifacts / "lobby.png")

    await become_taker(player)
    # The chien is shown to everyone, then the taker discards 6 cards under R6.
    await player.page.wait_for_selector("[data-section=chien] .card")
    chien = player.events("chien")[-1]["cards"]
    shown = await player.page.locator("[data-section=chien] .card").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert sorted(shown) == sorted(chien)
    await player.page.wait_for_selector("#hand [data-mode=discard]")
    await player.screenshot(artifacts / "discard.png")
    await player.play_until("discard")
    await player.page.wait_for_selector("#prompt [data-action=chelem]")
    await player.page.wait_for_selector("[data-section=discard-trumps]")
    public = player.events("discard")[-1]["trumps"]
    kept = await player.page.locator("[data-section=discard-trumps] .card").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert sorted(kept) == sorted(public)

    # The chelem choice, then cards: the first one with the keyboard (arrows + Enter).
    await player.play_until("chelem")
    await player.play_until(tricks=3, keyboard_first=True, poignee=True)
    assert player.played.keyboard_plays == 1
    for _ in range(8):  # a trick in progress makes the better picture
        if await player.page.locator("#centre .trick .slot").count() >= 2:
            break
        await player.play_until(tricks=len(player.events("trick")) + 1, poignee=True)
    await player.screenshot(artifacts / "table.png")
    await player.play_until("sheet", poignee=True)
    await player.page.wait_for_timeout(300)
    await player.screenshot(artifacts / "score-sheet.png")

    sheet = await player.check_sheet_matches_server()
    assert sheet["taker"] == 0 and sheet["contract"] == "garde"
    fields = await player.sheet_fields()
    assert fields["contract"] == "Garde ×2"
    assert fields["taker"] == "Player 1 (you)"

    # The server's record holds exactly what was clicked.
    record = player.events("record")[-1]["record"]
    assert len(record["plays"]) == 72
    dealt = [e for e in player.events("hand") if e["seat"] == 0][-1]["cards"]
    assert sorted(record["hands"][0]) == sorted(dealt)
    assert sorted(record["discard"]) == sorted(player.played.discard)
    assert record["chien"] == chien
    assert record["bids"][3] == "garde"  # dealer 0: seat 0 bids fourth
    assert cards_of_seat(record, sheet["trick_winners"], 0) == player.played.cards
    async with player.page.expect_download() as download_info:
        await player.page.click(".sheet [data-action=save-record]")
    download = await download_info.value
    number_ = player.events("record")[-1]["deal_number"]
    assert download.suggested_filename.endswith(f"-deal-{number_}.json")
    saved = await download.path()
    assert json.loads(Path(saved).read_text()) == record
    if player.played.poignee:
        assert sorted(record["poignees"]["0"]) == sorted(player.played.poignee)
        assert sorted(player.events("poignee")[0]["cards"]) == sorted(player.played.poignee)

    # The taker's points shown during play count the discard, as the sheet does (R6, R13).
    taker_points = number(await player.text("[data-field=points-taker]"))
    defence_points = number(await player.text("[data-field=points-defence]"))
    discard = sum(card_points(c) for c in record["discard"])
    assert taker_points == sheet["points"]
    assert taker_points + defence_points == 91
    note = await player.text("[data-field=points-note]")
    assert f"incl. {_shown(discard)} in your discard" in note
    assert player.events("table_over")
    assert "Game over" in await player.text(".sheet h2")
    assert not player.errors


@pytest.mark.timeout(200)
async def test_several_deals_a_reload_and_a_lost_connection(
    new_player: NewPlayer, artifacts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No petit sec: a deal cancelled and dealt again keeps its number, and its cancelled
    # sheet is then the last one the page shows (a random deal 2 once did that, and the
    # sheet shown after the reload was deal 2's, not deal 1's).
    deal_from(monkeypatch, where("several-deals", ordinary))
    player = await new_player()
    sent: list[dict[str, Any]] = []
    player.page.on("websocket", lambda ws: ws.on("framesent", lambda m: sent.append(json.loads(m))))
    await player.open()
    await player.page.select_option("#multi-deals", "3")
    assert "3 deals" in await player.text("[data-action=multi-start]")
    await player.page.click("[data-action=multi-start]")

    await player.play_until("sheet")
    await player.check_sheet_matches_server()
    number_ = player.events("deal_started")[-1]["deal_number"]
    assert f"Deal {number_} of 3" in await player.text("#info")
    # The countdown to the next deal (the server's 30 s wait); nobody else is waited for.
    countdown = await player.text(".sheet [data-field=next-in] .timer")
    assert countdown.endswith("s") and 0 < int(countdown[:-1]) <= 30
    assert not await player.visible(".sheet [data-field=waiting-for]")
    await player.screenshot(artifacts / "between-deals.png")
    await player.page.click(".sheet [data-action=next-deal]")
    await player.page.wait_for_selector(".sheet", state="detached")
    await player.page.wait_for_function(
        f"() => document.querySelector('#info').innerText.includes('Deal {number_ + 1} of 3')"
    )

    # Mid-deal: reload the page. The seat comes back with the same hand and history.
    await player.play_until(tricks=len(player.events("trick")) + 2)
    hand = sorted(c["code"] for c in await player.hand())
    assert len(hand) <= 16
    await player.page.reload()
    await player.page.wait_for_selector("#hand .card.legal")
    assert sorted(c["code"] for c in await player.hand()) == hand
    resumes = [m for m in sent if m["type"] == "resume"]
    # A reload asks for a snapshot (no last_seq): the table as it is, at once.
    assert "last_seq" not in resumes[-1] and resumes[-1]["token"]
    assert f"Deal {number_ + 1} of 3" in await player.text("#info")
    await player.page.click("#info [data-action=show-sheet]")
    assert await player.page.locator(".sheet").get_attribute("data-deal") == str(number_)
    await player.page.click(".sheet [data-action=close-sheet]")

    # Losing the network: a visible "reconnecting" state, then the seat resumes.
    await player.page.evaluate("window.cardavia.drop()")
    banner = player.page.locator("#conn-banner")
    await banner.wait_for(state="visible")
    assert "reconnecting" in (await banner.inner_text()).lower()
    await banner.wait_for(state="hidden", timeout=10000)
    resumes = [m for m in sent if m["type"] == "resume"]
    assert len(resumes) == 2 and resumes[-1]["last_seq"] > 0
    await player.play_until("sheet")
    await player.check_sheet_matches_server()
    await player.page.click(".sheet [data-action=next-deal]")
    await player.page.wait_for_selector(".sheet", state="detached")
    await player.play_until("sheet")
    over = player.events("table_over")
    assert over
    assert "Game over" in await player.text(".sheet h2")
    assert not await player.visible(".sheet [data-field=next-deal]")
    for seat in range(4):
        assert (
            number(await player.text(f".sheet [data-field=running-{seat}]"))
            == (over[-1]["totals"][seat])
        )
    assert not player.errors


@pytest.mark.timeout(60)
async def test_a_second_tab_offers_the_seat_and_takes_it_when_asked(
    new_player: NewPlayer,
) -> None:
    first = await new_player()
    await first.open()
    await first.page.click("[data-action=quick-start]")
    await first.page.wait_for_selector("#hand .card")
    hand = sorted(c["code"] for c in await first.hand())

    # Same browser, second tab: it does not silently take the seat over.
    second = Player(await first.page.context.new_page(), first.url)
    await second.open()
    await second.page.wait_for_selector("[data-action=play-here]")
    assert await second.page.locator("#hand .card").count() == 0
    await second.page.click("[data-action=play-here]")
    await second.page.wait_for_selector("#hand .card")
    assert sorted(c["code"] for c in await second.hand()) == hand

    # The first tab is told, and can take it back.
    banner = first.page.locator("#conn-banner")
    await banner.wait_for(state="visible")
    # 27.10's wording (the seat moved and the game goes on there; no "lost connection").
    assert "Your game moved to another tab or window" in (await banner.inner_text())
    assert [f for f in first.frames if f["type"] == "bye"][-1]["reason"] == "replaced"
    await first.page.click("#conn-banner [data-action=take-back]")
    await banner.wait_for(state="hidden")
    await second.page.locator("#conn-banner").wait_for(state="visible")
    assert not first.errors and not second.errors


def _shown(n: float) -> str:
    return str(int(n)) if float(n).is_integer() else str(n)
