"""R15-R20: card points, targets, contract score in halves, bonuses, the four scores.

The deals are the literal hands of ``tests/records/make_records.py`` (see the
README there for why their play is forced), some with one change.
"""

from __future__ import annotations

import dataclasses
import json

import engine
from engine import DealScore, PoigneeLevel, load_record, score
from engine.cards import HALF_POINTS

from ..records.make_records import CASES, LADDER_CHIEN, SEED, Case, build, ladder
from .helpers import ALL_CODES, autoplay, bid, chelem, make_deal
from .oracle import points, score_record


def sheet_of(case: Case) -> DealScore:
    return score(load_record(build(case)))


def bonuses(sheet: DealScore) -> list[tuple[str, str, float]]:
    return sorted((b.kind, b.side, b.points) for b in sheet.bonuses)


# R15 --------------------------------------------------------------------------------------


def test_R15_card_points_total_91() -> None:
    assert sum(HALF_POINTS) == 182
    for code in ALL_CODES:
        assert HALF_POINTS[engine.parse_card(code)] == 2 * points(code), code
    values = {code: HALF_POINTS[engine.parse_card(code)] / 2 for code in ("T1", "T21", "EX")}
    values |= {c: HALF_POINTS[engine.parse_card(c)] / 2 for c in ("KS", "QH", "ND", "JC", "10S")}
    assert values == {
        "T1": 4.5,
        "T21": 4.5,
        "EX": 4.5,
        "KS": 4.5,
        "QH": 3.5,
        "ND": 2.5,
        "JC": 1.5,
        "10S": 0.5,
    }
    assert HALF_POINTS[engine.parse_card("T2")] == 1


def test_R15_target_follows_the_bouts_held_at_the_end() -> None:
    # same trick play; the Excuse ends with the defence (2 bouts) or the taker (3)
    two = sheet_of(CASES["seed_garde_made"])
    three = sheet_of(CASES["excuse_last_trick_half_point"])
    one = sheet_of(CASES["petit_au_bout_defence"])
    none = sheet_of(CASES["chelem_announced_defence_sweep"])
    assert [(s.bouts, s.target) for s in (none, one, two, three)] == [
        (0, 56),
        (1, 51),
        (2, 41),
        (3, 36),
    ]


def test_R15_made_at_exactly_the_target() -> None:
    # the seed deal with the discard 1H..6H (3 points instead of 7): 38 + 3 = 41
    sheet = sheet_of(ladder(SEED, "garde", dealer=3, discard="1H..6H"))
    assert (sheet.points, sheet.bouts, sheet.target, sheet.made) == (41, 2, 41, True)
    assert sheet.contract_score == 50 and sheet.scores == (150, -50, -50, -50)


def test_R15_failed_below_the_target() -> None:
    sheet = sheet_of(CASES["garde_contre_failed"])  # 38 points, 2 bouts
    assert (sheet.points, sheet.target, sheet.made) == (38, 41, False)


# R16 --------------------------------------------------------------------------------------


def test_R16_contract_score_and_halves_are_never_rounded() -> None:
    sheet = sheet_of(CASES["excuse_last_trick_half_point"])
    # 49.5 points, 3 bouts: (25 + 13.5) x 1
    assert (sheet.points, sheet.target, sheet.contract_score) == (49.5, 36, 38.5)
    assert sheet.scores == (-38.5, 115.5, -38.5, -38.5)
    text = json.dumps(sheet.to_json())
    assert '"points": 49.5' in text and "115.5" in text


def test_R16_whole_numbers_print_without_a_fraction() -> None:
    sheet = sheet_of(CASES["seed_garde_made"]).to_json()
    assert json.dumps(sheet["scores"]) == "[-58, -58, 174, -58]"
    assert json.dumps(sheet["points"]) == "45"


def test_R16_multiplier_of_each_contract() -> None:
    # SEED, 45 points and 2 bouts: 29 per defender times the multiplier
    for contract, multiplier in [("prise", 1), ("garde", 2), ("garde_sans", 4)]:
        sheet = sheet_of(ladder(SEED, contract, dealer=3))
        assert (sheet.multiplier, sheet.contract_score) == (multiplier, 29 * multiplier)


# R17 --------------------------------------------------------------------------------------


def test_R17_petit_au_bout_to_the_taker() -> None:
    sheet = sheet_of(CASES["petit_au_bout_taker"])
    assert bonuses(sheet) == [("petit_au_bout", "taker", 20)]
    assert sheet.per_defender == 138 + 20


def test_R17_petit_au_bout_to_the_defence() -> None:
    sheet = sheet_of(CASES["petit_au_bout_defence"])
    assert bonuses(sheet) == [("petit_au_bout", "defence", 40)]
    assert sheet.per_defender == -124 - 40


def test_R17_chelem_ended_by_the_excuse_uses_trick_17() -> None:
    deal = load_record(build(CASES["chelem_announced_excuse_led"]))
    assert engine.PETIT in deal.tricks[16].cards and engine.EXCUSE in deal.tricks[17].cards
    assert ("petit_au_bout", "taker", 40) in bonuses(score(deal))


def test_R17_petit_before_the_last_trick_earns_nothing() -> None:
    for name in ("seed_garde_made", "chelem_unannounced", "chelem_announced_defence_sweep"):
        sheet = sheet_of(CASES[name])
        assert not [b for b in sheet.bonuses if b.kind == "petit_au_bout"], name


# R18 --------------------------------------------------------------------------------------


def test_R18_poignee_goes_to_the_side_that_wins_the_contract() -> None:
    shown_by_defender = sheet_of(CASES["poignee_defender_taker_made"])
    assert shown_by_defender.made and bonuses(shown_by_defender) == [("poignee", "taker", 20)]
    shown_by_taker = sheet_of(CASES["poignee_taker_failed"])
    assert not shown_by_taker.made
    assert bonuses(shown_by_taker) == [("poignee", "defence", 20)]
    assert shown_by_taker.per_defender == -70 - 20


def test_R18_bonus_by_level_not_multiplied() -> None:
    assert [level.bonus for level in PoigneeLevel] == [20, 30, 40]
    hands = ["T1..T15 1S 2S 3S", "T16..T21 EX 4S..KS", "1H..KH 1D..4D", None]
    for contract in ("garde_sans", "garde_contre"):
        deal = bid(make_deal(3, hands, "9C..KC"), contract, "pass", "pass", "pass")
        deal = autoplay(chelem(deal), shows={0: "T1..T13"})
        sheet = score(deal)
        side = "taker" if sheet.made else "defence"
        assert [(b.side, b.points) for b in sheet.bonuses if b.kind == "poignee"] == [(side, 30)]
        sign = 1 if sheet.made else -1
        others = sum(
            b.points if b.side == "taker" else -b.points
            for b in sheet.bonuses
            if b.kind != "poignee"
        )
        assert sheet.per_defender == sign * (sheet.contract_score + 30) + others
        assert list(sheet.scores) == score_record(engine.to_record(deal))["scores"]


# R19 --------------------------------------------------------------------------------------


def test_R19_announced_chelem_made() -> None:
    assert bonuses(sheet_of(CASES["chelem_announced_excuse_led"])) == [
        ("chelem", "taker", 400),
        ("petit_au_bout", "taker", 40),
    ]


def test_R19_announced_chelem_failed() -> None:
    sheet = sheet_of(CASES["chelem_announced_failed"])
    assert sheet.made and bonuses(sheet) == [("chelem", "defence", 200)]
    assert sheet.per_defender == 58 - 200


def test_R19_unannounced_chelem() -> None:
    sheet = sheet_of(CASES["chelem_unannounced"])
    assert bonuses(sheet) == [("chelem", "taker", 200)]
    assert sheet.per_defender == 320 + 200


def test_R19_a_defender_keeping_the_excuse_does_not_spoil_the_chelem() -> None:
    deal = load_record(build(CASES["r9_four_kings_triple"]))
    assert deal.won[1] == 1 << engine.EXCUSE and deal.excuse_transfer == 1
    assert ("chelem", "taker", 200) in bonuses(score(deal))


def test_R19_announced_and_swept_by_the_defence_both_apply() -> None:
    sheet = sheet_of(CASES["chelem_announced_defence_sweep"])
    assert bonuses(sheet) == [("chelem", "defence", 200), ("chelem", "defence", 200)]
    assert sheet.per_defender == -78 - 400


def test_R19_unannounced_defence_sweep() -> None:
    case = dataclasses.replace(CASES["chelem_announced_defence_sweep"], chelem=False)
    sheet = sheet_of(case)
    assert bonuses(sheet) == [("chelem", "defence", 200)]
    assert sheet.per_defender == -78 - 200


# R20 --------------------------------------------------------------------------------------


def test_R20_seed_example_garde_two_bouts_45_points() -> None:
    for dealer in range(4):
        sheet = sheet_of(ladder(SEED, "garde", dealer=dealer))
        taker = (dealer + 1) % 4
        assert (sheet.contract.code, sheet.bouts, sheet.points) == ("garde", 2, 45)
        assert sheet.taker == taker
        assert sheet.scores == tuple(174 if s == taker else -58 for s in range(4))


def test_R20_scores_sum_to_zero_and_the_taker_scores_three_times() -> None:
    for name, case in CASES.items():
        sheet = sheet_of(case)
        assert sum(sheet.scores) == 0, name
        a = sheet.per_defender
        assert sheet.scores[sheet.taker] == 3 * a
        assert [s for i, s in enumerate(sheet.scores) if i != sheet.taker] == [-a] * 3


def test_R20_the_result_adds_contract_and_bonuses() -> None:
    for name, case in CASES.items():
        sheet = sheet_of(case)
        sign = 1 if sheet.made else -1
        extra = sum(b.points if b.side == "taker" else -b.points for b in sheet.bonuses)
        assert sheet.per_defender == sign * sheet.contract_score + extra, name


def test_R20_cancelled_deals_score_nothing() -> None:
    deal = bid(make_deal(3, list(SEED), LADDER_CHIEN), "pass", "pass", "pass", "pass")
    assert score(deal).scores == (0, 0, 0, 0)
