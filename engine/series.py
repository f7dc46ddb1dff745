"""A series of deals at one table: the dealer passes to the right (R1), scores add up.

A cancelled deal (petit sec, all pass) scores nothing and does not count
toward the number of deals to play; the deal still passes to the right.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .deal import new_deal
from .scoring import DealScore, Points
from .state import Deal


@dataclass(slots=True)
class Series:
    deals_to_play: int | None = None  # None: until the table closes
    dealer: int = 0
    totals: list[Points] = field(default_factory=lambda: [0, 0, 0, 0])
    sheets: list[DealScore] = field(default_factory=list)
    played: int = 0  # deals scored, cancelled ones excluded

    def deal(self, rng: random.Random | int | str | bytes) -> Deal:
        """The next deal, dealt by the current dealer."""
        return new_deal(self.dealer, rng)

    def record(self, sheet: DealScore) -> None:
        """Add a finished deal's sheet; the deal passes to the right (R1)."""
        self.sheets.append(sheet)
        if sheet.status == "played":
            self.played += 1
            self.totals = [t + s for t, s in zip(self.totals, sheet.scores, strict=True)]
        self.dealer = (self.dealer + 1) % 4

    @property
    def is_over(self) -> bool:
        return self.deals_to_play is not None and self.played >= self.deals_to_play
