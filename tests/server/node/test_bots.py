"""The bot runner: expert and strong think in worker processes that survive what
happens to them (a worker killed, Ctrl-C), so a table's AI never stops for good."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import signal
import threading
from multiprocessing.context import SpawnProcess
from multiprocessing.process import BaseProcess

import pytest

import engine
from ai.strong import StrongBot
from server.node import bots
from server.node.bots import BotRunner


def a_turn() -> engine.View:
    deal = engine.new_deal(0, bytes(16))
    return engine.view(deal, deal.to_act)


def workers() -> set[BaseProcess]:
    """This process's live children (other tests' may linger: compare before and after)."""
    return {p for p in multiprocessing.active_children() if p.is_alive()}


async def test_a_killed_worker_is_replaced_and_the_decision_is_made_anyway() -> None:
    runner = BotRunner(workers=1)
    try:
        view, before = a_turn(), workers()
        first = await runner.decide("expert", view, "s1")
        (worker,) = workers() - before
        os.kill(worker.pid or 0, signal.SIGKILL)  # as the kernel's OOM killer would
        worker.join(10)
        again = await runner.decide("expert", view, "s1")
        assert again == first  # the same view and seed: the same decision
        assert runner.restarts == 1
        (replacement,) = workers() - before
        assert replacement is not worker
    finally:
        runner.close()


async def test_ctrl_c_reaches_the_node_not_its_workers() -> None:
    runner = BotRunner(workers=1)
    try:
        view, before = a_turn(), workers()
        await runner.decide("expert", view, "s2")
        (worker,) = workers() - before
        os.kill(worker.pid or 0, signal.SIGINT)  # a terminal's Ctrl-C goes to the group
        await asyncio.sleep(0.2)
        assert worker.is_alive()
        await runner.decide("expert", view, "s2")
        assert runner.restarts == 0
    finally:
        runner.close()


async def test_the_workers_are_spawned_off_the_event_loop_all_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A spawn forks and executes a new interpreter from the calling thread: on the loop,
    it stopped every table for tens of milliseconds (the worker processes really start;
    the test only notes the thread each started from)."""
    spawned_from: list[int] = []
    start = SpawnProcess.start

    def noted(process: SpawnProcess) -> None:
        spawned_from.append(threading.get_ident())
        start(process)

    monkeypatch.setattr(SpawnProcess, "start", noted)
    runner = BotRunner(workers=2)
    try:
        before = workers()
        await asyncio.gather(*(runner.decide("expert", a_turn(), f"s{i}") for i in range(3)))
        assert len(workers() - before) == 2  # both, before the first decision
        assert len(spawned_from) == 2 and threading.get_ident() not in spawned_from
        await runner.decide("expert", a_turn(), "s4")
        assert len(spawned_from) == 2
    finally:
        runner.close()


def test_a_duplicate_tables_strong_ai_searches_a_fixed_amount_not_against_the_clock() -> None:
    """Issue 24: the AI plays the same way for every entrant of an event, however loaded the
    node: its search stops after a number of samples, never at a deadline."""
    fixed = bots.bot_for("strong", fixed_work=True)
    assert isinstance(fixed, StrongBot) and fixed.samples == bots.FIXED_WORK["strong"]["samples"]
    clocked = bots.bot_for("strong")
    assert isinstance(clocked, StrongBot) and clocked.samples == 0  # a table's: the clock
    deal = deal_in_play()
    view = engine.view(deal, deal.to_act)
    first = bots.decide("strong", view, "seed", fixed_work=True)
    assert all(bots.decide("strong", view, "seed", fixed_work=True) == first for _ in range(3))


def deal_in_play() -> engine.Deal:
    """A deal whose card play has begun (random bids and discards until one is taken)."""
    for seed in range(100):
        rng = random.Random(seed)
        deal = engine.new_deal(seed % 4, bytes([seed] * 16))
        while not deal.is_over and deal.phase is not engine.Phase.PLAY:
            engine.apply_in_place(deal, engine.random_action(deal, rng))
        if not deal.is_over:
            return deal
    raise AssertionError("no deal reached its card play")
