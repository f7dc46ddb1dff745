"""Deal review: every decision of a finished deal judged by the ``strong`` AI's search.

For each decision (``decisions``: bids, discard, chelem, poignees,
cards) the deciding seat's view at that moment is rebuilt from the record
(``engine.view``: its own hand, the bids and cards seen so far, never the
hidden hands) and every option is valued by ``search`` in points of
that seat's score. The loss is the best option's value minus the chosen
one's, never negative; zero when the choice is the best.

Labels. The loss is read per defender's share (the taker's score is three
defenders' worth, so a taker's loss is divided by 3) and marked by
``THRESHOLDS``: inaccuracy, mistake, blunder. A loss inside ``NOISE_SIGMAS``
standard errors of its own paired samples is never marked, whatever its
size. The thresholds sit above the noise measured between two seeds at the
default budget (docs/BENCHMARKS.md, "Deal review").

Hindsight. In the last ``HINDSIGHT_TRICKS`` tricks, where it is cheap, each
card is also solved exactly with every hand known (``solver.best_moves`` on
the real deal): the best card with open cards and what the choice cost.

Reproducible: a decision's search draws from ``random.Random(f"{seed}/{index}")``
and its budget is counted in simulated plays, not time, so the same record,
budget and seed give the same review, in any process, in any order.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import engine
from ai.solver import best_moves
from engine import Deal, view

from .decisions import Decision, decisions_of
from .reasons import Reason, reason_for
from .search import Estimate, estimate, seat_points

DEFAULT_BUDGET_MS = 100.0
THRESHOLDS = (("blunder", 60.0), ("mistake", 30.0), ("inaccuracy", 15.0))
NOISE_SIGMAS = 2.0
HINDSIGHT_TRICKS = 3
LABELS = ("forced", "best", "good", "inaccuracy", "mistake", "blunder")
# Stored reviews are kept under this version (``reviewer_of``): raise it whenever the
# analysis would answer differently, so that no node serves a review the code no longer makes.
VERSION = 1


@dataclass(frozen=True, slots=True)
class ReviewSettings:
    budget_ms: float = DEFAULT_BUDGET_MS
    seed: int = 0
    seats: tuple[int, ...] = (0, 1, 2, 3)
    samples: int = 0  # > 0: this many samples per decision instead of the budget (tests)

    def __post_init__(self) -> None:
        if self.samples < 0:
            raise ValueError(f"samples must be >= 0, not {self.samples}")
        if not 0 < self.budget_ms <= 60_000:
            raise ValueError(f"budget_ms must be in (0, 60000], not {self.budget_ms}")
        if not self.seats or any(s not in (0, 1, 2, 3) for s in self.seats):
            raise ValueError(f"seats must be among 0-3, not {list(self.seats)}")


def reviewer_of(settings: ReviewSettings) -> str:
    """The name a stored review is kept under: the analysis's version and its settings.

    >>> reviewer_of(ReviewSettings())
    'strong-review/1 budget=100 seed=0 seats=0123'
    """
    seats = "".join(str(s) for s in settings.seats)
    name = f"strong-review/{VERSION} budget={settings.budget_ms:g} seed={settings.seed}"
    samples = f" samples={settings.samples}" if settings.samples else ""
    return f"{name} seats={seats}{samples}"


Job = tuple[str, int, ReviewSettings]
Mapper = Callable[[Callable[[Job], dict[str, Any]], Iterable[Job]], Iterator[dict[str, Any]]]


def jobs(record: Any, settings: ReviewSettings) -> list[Job]:
    """One job per decision of the chosen seats; ``engine.RecordError`` for a bad record."""
    decisions, _ = decisions_of(record)
    text = json.dumps(record, sort_keys=True)
    return [(text, d.index, settings) for d in decisions if d.seat in settings.seats]


def review(
    record: Any,
    settings: ReviewSettings,
    mapper: Mapper = map,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The whole review as one JSON object; ``mapper`` may be a process pool's ``imap``."""
    work = jobs(record, settings)
    entries = []
    for entry in mapper(review_job, work):
        entries.append(entry)
        if progress is not None:
            progress(len(entries), len(work))
    return assemble(entries, settings)


def assemble(entries: list[dict[str, Any]], settings: ReviewSettings) -> dict[str, Any]:
    """The review of the jobs' entries (in the order of the record) and its summary."""
    return {
        "budget_ms": settings.budget_ms,
        "seed": settings.seed,
        "seats": list(settings.seats),
        "thresholds": dict(THRESHOLDS),
        "decisions": entries,
        "summary": summary(entries, settings.seats),
    }


@functools.lru_cache(maxsize=4)
def _replayed(text: str) -> tuple[list[Decision], Deal]:
    return decisions_of(json.loads(text))


def review_job(job: Job) -> dict[str, Any]:
    """One decision's entry (a worker's unit: the record travels as its JSON text)."""
    text, index, settings = job
    decisions, final = _replayed(text)
    return judge(decisions[index], final, settings)


def judge(d: Decision, final: Deal, settings: ReviewSettings) -> dict[str, Any]:
    """The entry of one decision: the options' values, the loss, its label and reason."""
    seen = view(d.before, d.seat)
    entry: dict[str, Any] = {"index": d.index, "seat": d.seat, "kind": d.kind}
    entry["trick"] = len(d.before.tricks) + 1 if d.kind in ("card", "poignee") else None
    if d.kind == "card" and len(seen.legal.cards) == 1:
        return entry | _forced(d)
    seed = f"{settings.seed}/{d.index}"
    est = estimate(seen, d.kind, d.chosen, settings.budget_ms, seed, settings.samples)
    best = est.best(d.chosen)
    chosen_score, best_score = est.mean(d.chosen), est.mean(best)
    loss = best_score - chosen_score
    noise = est.noise(best, d.chosen)
    as_taker = d.kind == "bid" or d.seat == d.before.taker  # a bid is valued as the contract
    entry |= {
        "chosen": d.chosen,
        "best": best,
        "chosen_score": round(chosen_score, 2),
        "best_score": round(best_score, 2),
        "loss": round(loss, 2),
        "noise": round(noise, 2),
        "samples": est.samples,
        "label": label(loss, noise, as_taker, best == d.chosen),
        "taker": as_taker,
        "options": _options(est),
        "taker_score": _taker_score(d, final, chosen_score),
    }
    entry |= _reason_fields(reason_for(d, final, entry))
    if d.kind == "card" and 18 - len(d.before.tricks) <= HINDSIGHT_TRICKS:
        entry["hindsight"] = hindsight(d)
    return entry


def label(loss: float, noise: float, is_taker: bool, is_best: bool) -> str:
    """The mark of a loss (see the module docstring)."""
    if is_best:
        return "best"
    share = loss / 3 if is_taker else loss
    if loss <= NOISE_SIGMAS * noise:
        return "good"
    for name, points in THRESHOLDS:
        if share >= points:
            return name
    return "good"


def _forced(d: Decision) -> dict[str, Any]:
    return {
        "chosen": d.chosen,
        "best": d.chosen,
        "chosen_score": None,
        "best_score": None,
        "loss": 0.0,
        "noise": 0.0,
        "samples": 0,
        "label": "forced",
        "taker": d.seat == d.before.taker,
        "options": {},
        "taker_score": None,
    } | _reason_fields(None)


def _reason_fields(reason: Reason | None) -> dict[str, Any]:
    """The entry's reason: the English sentence, and its code and arguments for translation."""
    if reason is None:
        return {"reason": "", "reason_code": None, "reason_args": {}}
    return {"reason": reason.text, "reason_code": reason.code, "reason_args": reason.args}


def _options(est: Estimate) -> dict[str, float]:
    """Every option's value, best first (ties in option order)."""
    ranked = sorted(est.values, key=lambda o: (-est.mean(o), o))
    return {o: round(est.mean(o), 2) for o in ranked}


def _taker_score(d: Decision, final: Deal, chosen_score: float) -> float | None:
    """The deciding seat's estimate as the taker's expected score (the graph's points).

    Before the taker is known, only the eventual taker's own bid says what it
    expects to score as taker; the other bids give no point.
    """
    if final.taker < 0:
        return None
    if d.kind == "bid":
        return round(chosen_score, 2) if d.seat == final.taker and d.chosen != "pass" else None
    return round(chosen_score if d.seat == final.taker else -3 * chosen_score, 2)


def hindsight(d: Decision) -> dict[str, Any]:
    """The exact value of each card with every hand known, in the seat's points."""
    exact = best_moves(d.before.copy())
    seen = view(d.before, d.seat)
    scores = {engine.card_code(c): seat_points(seen, v) for c, v in exact.items()}
    best = max(sorted(scores), key=lambda c: scores[c])
    if scores[d.chosen] >= scores[best]:
        best = d.chosen
    return {
        "best": best,
        "best_score": scores[best],
        "chosen_score": scores[d.chosen],
        "loss": scores[best] - scores[d.chosen],
    }


def summary(entries: list[dict[str, Any]], seats: Iterable[int]) -> dict[str, Any]:
    """Per seat: decisions, the average loss per decision, the count of each label."""
    out: dict[str, Any] = {}
    for seat in seats:
        mine = [e for e in entries if e["seat"] == seat]
        counts = {name: sum(e["label"] == name for e in mine) for name in LABELS}
        total = sum(e["loss"] for e in mine)
        out[str(seat)] = {
            "decisions": len(mine),
            "average_loss": round(total / len(mine), 2) if mine else 0.0,
            "total_loss": round(total, 2),
            "labels": counts,
        }
    return out


__all__ = [
    "DEFAULT_BUDGET_MS",
    "HINDSIGHT_TRICKS",
    "LABELS",
    "THRESHOLDS",
    "Job",
    "ReviewSettings",
    "assemble",
    "hindsight",
    "jobs",
    "judge",
    "label",
    "review",
    "review_job",
    "summary",
]
