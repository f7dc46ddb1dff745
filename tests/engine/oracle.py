"""An independent scorer: the score sheet of a legal record, from docs/RULES.md alone.

It shares no code with the engine (only card codes in, plain numbers out) and
trusts the record to be legal; tests use it to cross-check ``engine.score``.
"""

from __future__ import annotations

from typing import Any

RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]
FACES = {"K": 4.5, "Q": 3.5, "N": 2.5, "J": 1.5}
BOUTS = {"T1", "T21", "EX"}
ORDER = ["pass", "prise", "garde", "garde_sans", "garde_contre"]
MULTIPLIER = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
TARGET = [56, 51, 41, 36]
POIGNEE = {10: 20, 13: 30, 15: 40}


def points(code: str) -> float:
    """R15: bouts and Kings 4.5, Queens 3.5, Knights 2.5, Jacks 1.5, others 0.5."""
    if code in BOUTS:
        return 4.5
    if code.startswith("T"):
        return 0.5
    return FACES.get(code[:-1], 0.5)


def _led(trick: list[str]) -> str:
    for code in trick:
        if code != "EX":
            return "T" if code.startswith("T") else code[-1]
    return ""


def _strength(code: str, led: str) -> int:
    if code == "EX":
        return -1
    if code.startswith("T"):
        return 100 + int(code[1:])
    return RANKS.index(code[:-1]) if code[-1] == led else -1


def winning_position(trick: list[str]) -> int:
    """R12: the highest trump, else the highest card of the led suit; never the Excuse."""
    led = _led(trick)
    strengths = [_strength(code, led) for code in trick]
    return strengths.index(max(strengths))


def is_petit_sec(hand: list[str]) -> bool:
    trumps = [c for c in hand if c.startswith("T")]
    return trumps == ["T1"] and "EX" not in hand


def score_record(record: dict[str, Any]) -> dict[str, Any]:
    """The sheet of a legal record: status, reason, taker, contract, bouts, points, ..."""
    if any(is_petit_sec(hand) for hand in record["hands"]):
        return {"status": "cancelled", "reason": "petit_sec", "scores": [0, 0, 0, 0]}
    bids = record["bids"]
    if all(b == "pass" for b in bids):
        return {"status": "cancelled", "reason": "all_pass", "scores": [0, 0, 0, 0]}
    first = (record["dealer"] + 1) % 4
    index = max(range(4), key=lambda i: ORDER.index(bids[i]))
    taker, contract = (first + index) % 4, bids[index]
    chelem = record.get("chelem", False)
    tricks = _tricks(record["plays"], taker if chelem else first, taker)
    won = [t["taker_won"] for t in tricks]
    mine = [c for t in tricks for c in t["to_taker"]]
    if contract in ("prise", "garde"):
        mine += record["discard"]
    elif contract == "garde_sans":
        mine += record["chien"]
    total = sum(points(c) for c in mine) + sum(t["transfer"] for t in tricks)
    bouts = len(BOUTS & set(mine))
    target = TARGET[bouts]
    made = total >= target
    multiplier = MULTIPLIER[contract]
    a = (25 + abs(total - target)) * multiplier * (1 if made else -1)
    # R17: the last trick, or trick 17 when a chelem ends with the Excuse led to trick 18
    deciding = tricks[16] if tricks[17]["swept"] else tricks[17]
    if "T1" in deciding["cards"]:
        a += 10 * multiplier * (1 if deciding["taker_won"] else -1)
    for shown in record.get("poignees", {}).values():
        a += POIGNEE[len(shown)] * (1 if made else -1)
    if chelem:
        a += 400 if all(won) else -200
    elif all(won):
        a += 200
    if not any(won):
        a -= 200
    return {
        "status": "played",
        "taker": taker,
        "contract": contract,
        "bouts": bouts,
        "points": total,
        "target": target,
        "made": made,
        "scores": [3 * a if s == taker else -a for s in range(4)],
        "trick_winners": [t["winner"] for t in tricks],
    }


def in_tricks(record: dict[str, Any]) -> tuple[float, int]:
    """The taker's side's card points and bouts from tricks alone (R13/R14 included)."""
    first = (record["dealer"] + 1) % 4
    bids = record["bids"]
    index = max(range(4), key=lambda i: ORDER.index(bids[i]))
    taker = (first + index) % 4
    tricks = _tricks(record["plays"], taker if record.get("chelem") else first, taker)
    mine = [c for t in tricks for c in t["to_taker"]]
    total = sum(points(c) for c in mine) + sum(t["transfer"] for t in tricks)
    return total, len(BOUTS & set(mine))


def _tricks(plays: list[str], leader: int, taker: int) -> list[dict[str, Any]]:
    """Each trick's cards, winner, cards going to the taker's side and Excuse transfer."""
    out: list[dict[str, Any]] = []
    for n in range(18):
        cards = plays[4 * n : 4 * n + 4]
        seats = [(leader + i) % 4 for i in range(4)]
        ex_taker = seats[cards.index("EX")] == taker if "EX" in cards else None
        # R14: the Excuse's side won tricks 1-17 and leads the Excuse to trick 18
        swept = n == 17 and cards[0] == "EX" and all(t["taker_won"] == ex_taker for t in out)
        winner = seats[0] if swept else seats[winning_position(cards)]
        taker_won = winner == taker
        to_taker = [c for c in cards if c != "EX"] if taker_won else []
        transfer = 0.0
        if ex_taker is not None:
            if n < 17:  # R13: the Excuse stays with its side, 0.5 to the winner
                keeps = ex_taker
                if ex_taker != taker_won:
                    transfer = 0.5 if taker_won else -0.5
            else:  # R14: to the side that did not play it, unless swept
                keeps = ex_taker if swept else not ex_taker
            if keeps:
                to_taker.append("EX")
        out.append(
            {
                "cards": cards,
                "winner": winner,
                "taker_won": taker_won,
                "to_taker": to_taker,
                "transfer": transfer,
                "swept": swept,
            }
        )
        leader = winner
    return out
