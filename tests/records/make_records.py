"""Write the golden game records of this folder (``python -m tests.records.make_records``).

Each case is a deal built so that the play is forced or obvious (see README.md
for every deal's shape and the hand-made arithmetic of its score sheet). The
engine only fills in the cards the structure leaves free, by playing each
seat's lowest legal card; it never computes an expected sheet: those are the
hand-written ``NAME.sheet.json`` files next to each record.

Hands are given relative to the dealer: ``[taker, D1, D2, D3]`` are seats
``dealer + 1, + 2, + 3, + 4`` (mod 4), so the first hand is the first bidder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import engine
from engine import Bid, Contract, DeclareChelem, Discard, apply
from tests.engine.helpers import autoplay, card_set, codes

HERE = Path(__file__).parent


Hands = tuple[str | None, str | None, str | None, str | None]


@dataclass(frozen=True)
class Case:
    dealer: int
    hands: Hands  # relative to the dealer, first bidder first; None: the cards left
    chien: str
    bids: tuple[str, ...]
    discard: str = ""
    chelem: bool = False
    script: dict[int, str] = field(default_factory=dict)  # relative seat -> cards
    shows: dict[int, str] = field(default_factory=dict)  # relative seat -> poignee
    avoid: str = "EX"


# LADDER deals: the taker (first bidder) leads T12..T21 and wins tricks 1-10, D1
# follows with T1..T10; D2 and D3 have no trump and give their 10 lowest cards.
# Trick 11: the taker leads a heart, D1 trumps with T11, and since no defender
# holds a heart and the taker has no trump left, the defence wins tricks 11-18.
TAKER_LADDER = "T12..T21 5H..10H NH KH"
LADDER_CHIEN = "1H 2H 3H 4H JH QH"
SEED = (TAKER_LADDER, "T1..T11 8D..KD", "1S..10S 1C..8C", "JS NS QS KS 1D..7D 9C..KC EX")
LOW = (TAKER_LADDER, "T1..T11 JS NS QS KS ND QD KD", "1S..10S 1C..8C", "1D..10D JD 9C..KC EX")
HIGH = (
    TAKER_LADDER,
    "T1..T11 7S..10S 1C 2C 3C",
    "JS NS QS KS 1D..10D 4C..7C",
    "1S..6S JD ND QD KD 8C..KC EX",
)
EX_AT_11 = {3: "- - - - - - - - - - EX"}  # D3 plays the Excuse to trick 11, a defence trick
PASSES = ("pass", "pass", "pass")


def ladder(
    hands: Hands,
    contract: str,
    dealer: int,
    discard: str = "",
    *,
    chelem: bool = False,
    script: dict[int, str] | None = None,
    shows: dict[int, str] | None = None,
) -> Case:
    """A ladder deal; the discard defaults to the chien, D3 plays the Excuse to trick 11."""
    if contract in ("prise", "garde") and not discard:
        discard = LADDER_CHIEN
    script = EX_AT_11 if script is None else script
    bids = (contract, *PASSES)
    return Case(dealer, hands, LADDER_CHIEN, bids, discard, chelem, script, shows or {})


# The taker loses trick 1 (D1 trumps 8H), overtrumps D1's T3 lead at trick 2, then
# leads T21..T13 (D1 runs out of trumps), six winning hearts and T1 to trick 18.
PETIT_TAKER = ("T1 T12..T21 8H..KH", "T2..T11 7S..KS", "1H..4H 1D..KD", "5H 6H 7H EX 1C..KC")
# The taker leads T13..T21 (tricks 1-9) and a heart to trick 10: D1 trumps with T11,
# then leads T12, six winning clubs and T1 to trick 18.
PETIT_DEFENCE = ("T13..T21 1H..9H", "T1..T12 9C..KC", "2S..KS 1D..5D", "6D..KD 1C..8C EX")
# The taker shows T13..T21 and the Excuse, wins tricks 1-9, leads the Excuse to trick 10.
POIGNEE_EXCUSE = ("T13..T21 EX 7H..KH", "T1..T12 9C..KC", "1S..10S 1C..8C", "JS NS QS KS 1D..KD")
# Four Kings and T8..T21; the chien brings three hearts and T5 T6 T7, all discarded.
FOUR_KINGS = (
    "KS KH KD KC T8..T21",
    "T1 T2 1S..QS 4H 5H 6H",
    "T3 T4 EX 7H..QH 1D..8D",
    "9D..QD 1C..QC",
)
# Eighteen trumps: every trick is the taker's.
ALL_TRUMPS = ("T4..T21", "T1 T2 1S..KS 1H 2H", "T3 3H..KH 1D..5D", "EX 6D..KD 1C..8C")
# Announced chelem by the second bidder, who leads, wins 17 tricks and leads the Excuse.
SLAM = ("T2 T3 1S..KS 1H 2H", "T1 T6..T21 EX", "T4 T5 3H..KH 1D..4D", "5D..KD 1C..8C")
# No trump and only low spades and diamonds: the defence wins every trick.
WEAK = ("1S..9S 1D..9D", "T1..T11 10S..KS 7H 8H", "T12..T21 9H..KH 10D JD", None)

CASES: dict[str, Case] = {
    "seed_garde_made": ladder(SEED, "garde", dealer=1),
    "prise_made": ladder(SEED, "prise", dealer=2),
    "prise_failed": ladder(LOW, "prise", dealer=3, discard="1H..6H", script=EX_AT_11),
    "garde_failed": ladder(LOW, "garde", dealer=0, discard="1H..6H"),
    "garde_sans_made": ladder(HIGH, "garde_sans", dealer=3),
    "garde_sans_failed": ladder(LOW, "garde_sans", dealer=2),
    "garde_contre_made": ladder(HIGH, "garde_contre", dealer=1),
    "garde_contre_failed": ladder(SEED, "garde_contre", dealer=0),
    "chelem_announced_failed": ladder(SEED, "garde", dealer=2, chelem=True),
    "poignee_taker_made": ladder(SEED, "garde", dealer=3, shows={0: "T12..T21"}),
    "poignee_defender_taker_made": ladder(SEED, "garde", dealer=0, shows={1: "T2..T11"}),
    "poignee_taker_failed": ladder(LOW, "garde", dealer=1, discard="1H..6H", shows={0: "T12..T21"}),
    "excuse_compensation": ladder(SEED, "garde_sans", dealer=3, script={3: "EX"}),
    "excuse_last_trick_half_point": ladder(SEED, "prise", dealer=0, script={}),
    "petit_au_bout_taker": Case(
        1,
        PETIT_TAKER,
        "1S..6S",
        ("garde", *PASSES),
        "1S..6S",
        script={0: "8H T12 T21..T13 9H..KH T1", 3: "EX"},
    ),
    "petit_au_bout_defence": Case(
        2,
        PETIT_DEFENCE,
        "10H JH NH QH KH 1S",
        ("garde_sans", *PASSES),
        script={0: "T13..T21 1H..9H", 3: "- - - - - - - - - EX"},
        avoid="EX T1",
    ),
    "poignee_excuse": Case(
        3,
        POIGNEE_EXCUSE,
        "1H..6H",
        ("garde", *PASSES),
        "1H..6H",
        script={0: "T13..T21 EX 7H..KH"},
        shows={0: "T13..T21 EX"},
    ),
    "r9_four_kings_triple": Case(
        3,
        FOUR_KINGS,
        "1H 2H 3H T5 T6 T7",
        ("garde", *PASSES),
        "1H 2H 3H T5 T6 T7",
        script={0: "T21..T8 KS KH KD KC", 2: "- EX"},
        shows={0: "T5..T19"},
    ),
    "chelem_unannounced": Case(2, ALL_TRUMPS, "9C..KC", ("garde_sans", *PASSES)),
    "chelem_announced_excuse_led": Case(
        0,
        SLAM,
        "9C..KC",
        ("pass", "garde_sans", "pass", "pass"),
        chelem=True,
        script={1: "T21..T6 T1 EX"},
    ),
    "chelem_announced_defence_sweep": Case(
        1, WEAK, "1H..6H", ("prise", *PASSES), "1H..6H", chelem=True, avoid=""
    ),
}


def absolute(case: Case, relative: int) -> int:
    return (case.dealer + 1 + relative) % 4


def build(case: Case) -> dict[str, object]:
    given = {c for h in case.hands if h is not None for c in codes(h)} | set(codes(case.chien))
    rest = " ".join(c for c in ALL if c not in given)
    hands = [codes(h if h is not None else rest) for h in case.hands]
    by_seat = [hands[(seat - case.dealer - 1) % 4] for seat in range(4)]
    deal = engine.deal_from_hands(
        case.dealer,
        [[engine.parse_card(c) for c in hand] for hand in by_seat],
        [engine.parse_card(c) for c in codes(case.chien)],
    )
    for code in case.bids:
        deal = apply(deal, Bid(deal.to_act, Contract.from_code(code)))
    if case.discard:
        deal = apply(deal, Discard(deal.taker, card_set(case.discard)))
    deal = apply(deal, DeclareChelem(deal.taker, case.chelem))
    script = {absolute(case, s): text for s, text in case.script.items()}
    shows = {absolute(case, s): text for s, text in case.shows.items()}
    deal = autoplay(deal, script, case.avoid, shows)
    return engine.to_record(deal)


ALL = [engine.card_code(c) for c in range(78)]

CANCELLED = {
    "cancelled_petit_sec": {
        "format": "tarot-record/1",
        "dealer": 2,
        "hands": [
            codes("T1 1S..KS 1H 2H 3H"),
            codes("T2..T12 4H..10H"),
            codes("T13..T21 EX JH..KH 1D 2D 3D 4D"),
            codes("5D..KD 1C..8C"),
        ],
        "chien": codes("9C..KC"),
        "bids": [],
    },
    "cancelled_all_pass": {
        "format": "tarot-record/1",
        "dealer": 0,
        "hands": [codes(h) for h in SEED],
        "chien": codes(LADDER_CHIEN),
        "bids": ["pass", "pass", "pass", "pass"],
    },
}


def main() -> None:
    for name, case in CASES.items():
        _write(name, build(case))
    for name, record in CANCELLED.items():
        _write(name, record)


def _write(name: str, record: dict[str, object]) -> None:
    (HERE / f"{name}.json").write_text(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
