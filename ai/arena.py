"""Duplicate matches between two bots, so that card luck cancels.

Each deal is played five times from the same cards: with bot A in each of
the four seats against three B, and with four B. A's margin on the deal is
A's score minus B's score in the same seat, averaged over the four seatings.
An action the engine refuses is counted as illegal and replaced by a random
legal one so the deal can finish (a correct bot never has any).

``play_duplicate`` is a pure function of (specs, deal index, seed), so deals
can be spread over a process pool and still give the same figures.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import engine
from engine import IllegalAction, Phase, apply_in_place, new_deal, random_action, score, view

from . import make_bot
from .base import AiPlayer
from .errors import AiError

TABLES = ("A0", "A1", "A2", "A3", "B")


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot by level and options; ``parse`` reads ``strong:budget_ms=400,fast=1``."""

    level: str
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, text: str, defaults: dict[str, Any] | None = None) -> BotSpec:
        level, _, rest = text.partition(":")
        options = dict(defaults or {}) if level == "strong" else {}
        for item in filter(None, rest.split(",")):
            key, sep, value = item.partition("=")
            if not sep:
                raise ValueError(f"bot option {item!r} must be key=value")
            options[key] = _number(value)
        spec = cls(level, tuple(sorted(options.items())))
        spec.build()  # refuse unknown levels and options now
        return spec

    def build(self) -> AiPlayer:
        return make_bot(self.level, **dict(self.options))

    def __str__(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.level}:{opts}" if opts else self.level


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


@dataclass(slots=True)
class TableResult:
    """One of the five plays of a deal."""

    table: str
    scores: tuple[float, float, float, float]
    sheet: dict[str, Any]
    record: dict[str, Any]
    illegal: int = 0
    times_ms: dict[str, list[float]] = field(default_factory=dict)  # "A:play" -> times


@dataclass(slots=True)
class DealResult:
    index: int
    seed: int
    margin: float
    tables: list[TableResult]


_BOTS: dict[BotSpec, AiPlayer] = {}


def _bot(spec: BotSpec) -> AiPlayer:
    if spec not in _BOTS:
        _BOTS[spec] = spec.build()
    return _BOTS[spec]


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index``: the first one after petit sec redeals (R3)."""
    for attempt in range(1000):
        candidate = (seed * 1_000_003 + index) * 1_009 + attempt
        if not new_deal(index % 4, candidate).cancelled:
            return candidate
    raise RuntimeError("no playable deal")  # pragma: no cover - petit sec is rare


def play_table(
    table: str, bots: list[AiPlayer], labels: list[str], dealer: int, seed: int
) -> TableResult:
    deal = new_deal(dealer, seed)
    rng = random.Random(f"{seed}/{table}")
    result = TableResult(table, (0, 0, 0, 0), {}, {})
    while not deal.is_over:
        seat = deal.to_act
        phase = "play" if deal.phase is Phase.PLAY else deal.phase.value
        start = time.perf_counter()
        action = bots[seat].choose(view(deal, seat), rng)
        elapsed = 1000 * (time.perf_counter() - start)
        result.times_ms.setdefault(f"{labels[seat]}:{phase}", []).append(elapsed)
        try:
            apply_in_place(deal, action)
        except IllegalAction:
            result.illegal += 1
            apply_in_place(deal, random_action(deal, rng))
    sheet = score(deal)
    result.scores = tuple(float(s) for s in sheet.scores)  # type: ignore[assignment]
    result.sheet = sheet.to_json()
    result.record = engine.to_record(deal)
    return result


def play_duplicate(a: BotSpec, b: BotSpec, index: int, seed: int) -> DealResult:
    """Deal ``index`` of a match, played at the five tables."""
    dseed = deal_seed(seed, index)
    dealer = index % 4
    bot_a, bot_b = _bot(a), _bot(b)
    tables = []
    for table in TABLES:
        seats = [bot_b] * 4
        labels = ["B"] * 4
        if table != "B":
            seats[int(table[1])] = bot_a
            labels[int(table[1])] = "A"
        tables.append(play_table(table, seats, labels, dealer, dseed))
    reference = tables[-1].scores
    margin = sum(t.scores[s] - reference[s] for s, t in enumerate(tables[:4])) / 4
    return DealResult(index, dseed, margin, tables)


def play_duplicate_args(args: tuple[BotSpec, BotSpec, int, int]) -> DealResult:
    """``play_duplicate`` with one argument, for ``Pool.imap``."""
    return play_duplicate(*args)


def bootstrap_ci(
    values: list[float], rng: random.Random, resamples: int = 2000, level: float = 0.95
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean (paired: one value per deal)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    means = sorted(sum(rng.choices(values, k=n)) / n for _ in range(resamples))
    tail = (1 - level) / 2
    return (means[int(tail * resamples)], means[min(resamples - 1, int((1 - tail) * resamples))])


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass(slots=True)
class SideStats:
    """One bot's figures, seen from the seat it holds (A at table Ak, B at table B)."""

    taken: dict[str, int] = field(default_factory=dict)
    made: dict[str, int] = field(default_factory=dict)
    petit_won: int = 0
    petit_lost: int = 0
    score: float = 0.0

    def add(self, seat: int, sheet: dict[str, Any]) -> None:
        if sheet["status"] != "played":
            return
        self.score += sheet["scores"][seat]
        side = "taker" if sheet["taker"] == seat else "defence"
        if side == "taker":
            code = sheet["contract"]
            self.taken[code] = self.taken.get(code, 0) + 1
            self.made[code] = self.made.get(code, 0) + int(sheet["made"])
        for bonus in sheet["bonuses"]:
            if bonus["kind"] == "petit_au_bout":
                if bonus["side"] == side:
                    self.petit_won += 1
                else:
                    self.petit_lost += 1

    def to_json(self, seat_deals: int) -> dict[str, Any]:
        contracts = {
            code: {"taken": n, "made": self.made[code], "rate": round(self.made[code] / n, 3)}
            for code, n in sorted(self.taken.items(), key=lambda kv: _ORDER.index(kv[0]))
        }
        taken = sum(self.taken.values())
        return {
            "score_per_seat_deal": round(self.score / max(1, seat_deals), 2),
            "taken": taken,
            "made": sum(self.made.values()),
            "take_rate": round(taken / max(1, seat_deals), 3),
            "contracts": contracts,
            "petit_au_bout": {"won": self.petit_won, "lost": self.petit_lost},
        }


_ORDER = [c.code for c in engine.Contract]


@dataclass(slots=True)
class Summary:
    """Every figure of a match, accumulated deal by deal."""

    a: str
    b: str
    match_deals: int = 100
    margins: list[float] = field(default_factory=list)
    indices: list[int] = field(default_factory=list)  # each margin's deal index
    # per deal and table Ak, the four scores from A's seat round: (A, next, opposite, previous)
    seated: list[list[tuple[float, ...]]] = field(default_factory=list)
    illegal: int = 0
    side_a: SideStats = field(default_factory=SideStats)
    side_b: SideStats = field(default_factory=SideStats)
    times_ms: dict[str, list[float]] = field(default_factory=dict)

    def add(self, result: DealResult) -> None:
        self.margins.append(result.margin)
        self.indices.append(result.index)
        self.seated.append([t.scores[k:] + t.scores[:k] for k, t in enumerate(result.tables[:4])])
        reference = result.tables[-1]
        for seat, table in enumerate(result.tables[:4]):
            self.side_a.add(seat, table.sheet)
            self.side_b.add(seat, reference.sheet)
        for table in result.tables:
            self.illegal += table.illegal
            for key, times in table.times_ms.items():
                self.times_ms.setdefault(key, []).extend(times)

    def to_json(self, seed: int) -> dict[str, Any]:
        low, high = bootstrap_ci(self.margins, random.Random(seed))
        n = len(self.margins)
        play_a = self.times_ms.get("A:play", [])
        return {
            "a": self.a,
            "b": self.b,
            "deals": n,
            "margin": round(sum(self.margins) / max(1, n), 2),
            "ci_low": round(low, 2),
            "ci_high": round(high, 2),
            "illegal": self.illegal,
            "p50_ms": round(percentile(play_a, 0.5), 3),
            "p99_ms": round(percentile(play_a, 0.99), 3),
            "times_ms": {
                key: {
                    "n": len(v),
                    "p50": round(percentile(v, 0.5), 3),
                    "p99": round(percentile(v, 0.99), 3),
                    "max": round(max(v), 3),
                }
                for key, v in sorted(self.times_ms.items())
            },
            "bot_a": self.side_a.to_json(4 * n),
            "bot_b": self.side_b.to_json(4 * n),
            "matches": self.matches(random.Random(seed)),
            "seed": seed,
            "per_deal": [[i, round(m, 4)] for i, m in zip(self.indices, self.margins, strict=True)],
        }

    def matches(self, rng: random.Random, resamples: int = 2000) -> dict[str, Any]:
        """How often A, in one seat against three B, ends a series of deals ahead of all three.

        A match is ``match_deals`` consecutive deals at one of the tables Ak
        (A keeps seat k while the deal passes round): A wins it when its total
        beats each B's total. ``won``/``played`` count disjoint matches;
        ``bootstrap_rate`` estimates the winning rate from matches redrawn out
        of every deal played (None until there are enough deals).
        """
        m = self.match_deals
        n = len(self.seated)
        played = won = 0
        for start in range(0, n - m + 1, m):
            for k in range(4):
                played += 1
                won += self._a_wins(range(start, start + m), k)
        rate = None
        if n >= m:
            wins = sum(
                self._a_wins(rng.choices(range(n), k=m), rng.randrange(4)) for _ in range(resamples)
            )
            rate = round(wins / resamples, 4)
        return {"deals": m, "played": played, "won": won, "bootstrap_rate": rate}

    def _a_wins(self, deals: Iterable[int], k: int) -> bool:
        """Whether A, in seat k through these deals, scored more than each B."""
        totals = [0.0] * 4
        for i in deals:
            for j, points in enumerate(self.seated[i][k]):
                totals[j] += points
        return totals[0] > max(totals[1:])


class PoolError(AiError, ValueError):
    """Runs that cannot be pooled: another pair of bots, a deal counted twice, no deals."""


def pool(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One match from several runs of the same two bots over disjoint deals.

    A long match may be played in pieces (``--first``, or other seeds); each
    deal is identified by (seed, index), and the pooled figures are those of
    all the deals: the mean margin, its paired-bootstrap interval, the illegal
    actions.
    """
    if not runs:
        raise PoolError("no runs to pool")
    pair = (runs[0].get("a"), runs[0].get("b"))
    seen: set[tuple[int, int]] = set()
    margins: list[float] = []
    for run in runs:
        if (run.get("a"), run.get("b")) != pair:
            raise PoolError(f"{run.get('a')} vs {run.get('b')} is not {pair[0]} vs {pair[1]}")
        if "per_deal" not in run or "seed" not in run:
            raise PoolError("a run without per_deal margins (made before they were kept)")
        for index, margin in run["per_deal"]:
            key = (int(run["seed"]), int(index))
            if key in seen:
                raise PoolError(f"deal {index} of seed {run['seed']} is in two runs")
            seen.add(key)
            margins.append(float(margin))
    low, high = bootstrap_ci(margins, random.Random(0))
    n = len(margins)
    return {
        "a": pair[0],
        "b": pair[1],
        "runs": len(runs),
        "deals": n,
        "margin": round(sum(margins) / n, 2) if n else 0.0,
        "ci_low": round(low, 2),
        "ci_high": round(high, 2),
        "illegal": sum(int(run.get("illegal", 0)) for run in runs),
    }
