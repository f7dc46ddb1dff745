"""How much a review depends on its seed: two reviews of the same deals, decision by decision.

The loss of a decision is an estimate from samples; another seed draws other
samples. ``compare`` pairs the entries of two reviews made with different
seeds (same records, same budget) and summarises how far their losses lie
apart, read per defender's share as the marks are (``review.label``), and how
often the two give a decision different marks. Forced cards are left out:
they are not searched.
"""

from __future__ import annotations

from typing import Any

MARKS = ("inaccuracy", "mistake", "blunder")


def _share(entry: dict[str, Any], loss: float) -> float:
    return loss / 3 if entry["taker"] else loss


def compare(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of two reviews' entries of the same decisions (``taker`` added to each)."""
    gaps: list[float] = []
    label_changes = marked_either = best_changes = marked_once = 0
    for x, y in zip(a, b, strict=True):
        if x["label"] == "forced":
            continue
        gaps.append(abs(_share(x, x["loss"]) - _share(y, y["loss"])))
        best_changes += x["best"] != y["best"]
        if x["label"] in MARKS or y["label"] in MARKS:
            marked_either += 1
            label_changes += x["label"] != y["label"]
            marked_once += (x["label"] in MARKS) != (y["label"] in MARKS)
    gaps.sort()
    n = len(gaps)

    def q(p: float) -> float:
        return round(gaps[min(n - 1, int(p * n))], 2) if n else 0.0

    return {
        "decisions": n,
        "loss_gap": {"median": q(0.5), "p90": q(0.9), "p95": q(0.95), "p99": q(0.99)},
        "loss_gap_max": round(gaps[-1], 2) if n else 0.0,
        "best_differs": best_changes,
        "marked_by_either": marked_either,
        "marked_differently": label_changes,
        "marked_by_one_only": marked_once,
    }
