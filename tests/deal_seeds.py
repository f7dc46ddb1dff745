"""Deal seeds for tests that need a kind of deal.

The server shuffles each deal from a fresh secret seed (``server.tabledata.new_seed``,
looked up by ``server.transitions`` at each deal). A test rigs the deck by choosing
the seeds it hands out, nothing else: the deal is then dealt, played and scored as
any other.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterator

import pytest

import engine
from engine import KINGS, TRUMPS
from server.table import transitions


def seeds(label: str) -> Iterator[str]:
    """An endless stream of seeds in the server's form (32 hex digits), the same every run."""
    for i in itertools.count():
        yield hashlib.sha256(f"{label}-{i}".encode()).hexdigest()[:32]


def petit_sec(seed: str) -> bool:
    """The deal is cancelled at once (a petit sec), whoever deals."""
    return all(engine.new_deal(dealer, bytes.fromhex(seed)).is_over for dealer in range(4))


def ordinary(seed: str) -> bool:
    """No petit sec, whoever deals: the deal goes to the bidding."""
    return not any(engine.new_deal(dealer, bytes.fromhex(seed)).is_over for dealer in range(4))


def weak_for(seat: int) -> Callable[[str], bool]:
    """An ordinary deal where ``seat`` holds no King and at most three trumps, whoever
    deals: it cannot win every trick, so others lead some of them."""

    def weak(seed: str) -> bool:
        hands = [engine.new_deal(dealer, bytes.fromhex(seed)).hands[seat] for dealer in range(4)]
        return ordinary(seed) and all(
            not hand & KINGS and (hand & TRUMPS).bit_count() <= 3 for hand in hands
        )

    return weak


def deal_from(monkeypatch: pytest.MonkeyPatch, chosen: Iterator[str]) -> None:
    """The server's next deals are shuffled from ``chosen``, in order."""
    monkeypatch.setattr(transitions, "new_seed", lambda: next(chosen))


def where(label: str, wanted: Callable[[str], bool]) -> Iterator[str]:
    return (seed for seed in seeds(label) if wanted(seed))


def petit_sec_first(monkeypatch: pytest.MonkeyPatch, label: str) -> None:
    """The first deal is a petit sec, dealt again at once; the deals after it are ordinary."""
    first = next(where(f"{label}-petit-sec", petit_sec))
    deal_from(monkeypatch, itertools.chain([first], where(label, ordinary)))
