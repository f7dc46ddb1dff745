"""A short ``tarot soak``: two real nodes on a Redis of its own, bots at a few tables, each
kind of fault once (kill -9 and SIGTERM of a node, Redis DEBUG SLEEP, Redis stopped and
killed, restarted on its AOF each time), a fixed seed; every count it checks must be
clean (issue 13, "Tests")."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cli.local_servers import ROOT


# The faults come on a clock, at 3, 6, 9, 12 and 15 s: the five kinds once, however long
# each takes (a node restart: seconds under load). 16 s, not 36 s 7 s apart: the same faults.
@pytest.mark.timeout(300)  # 16 s of faults, the tables' end, start and stop: ~40-70 s here
def test_a_short_soak_with_every_fault_loses_repeats_and_freezes_nothing(tmp_path: Path) -> None:
    args = [sys.executable, "-m", "cli.main", "soak", "--seconds", "16", "--tables", "3"]
    args += ["--fault-every", "3", "--seed", "7", "--workdir", str(tmp_path), "--json"]
    soak = subprocess.Popen(
        args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        out, err = soak.communicate(timeout=280)
    finally:
        if soak.poll() is None:  # SIGTERM: the soak stops its nodes and Redis, then exits
            soak.send_signal(signal.SIGTERM)
            soak.communicate(timeout=30)
    result = json.loads(out)
    why = {k: result[k] for k in ("bad", "seat_failures", "stuck_tables", "faults")}
    assert result["bad"] == [], (why, result)  # what failed first: the dict is long
    assert soak.returncode == 0, err[-2000:]
    assert result["faults"] == dict.fromkeys(
        ("kill_node", "sigterm_node", "redis_sleep", "redis_restart", "redis_kill"), 1
    )
    # It did play through the faults: actions, finished deals re-scored, resumes, retries.
    assert result["actions_acknowledged"] > 300, result
    assert result["deals_rescored"] >= 3, result
    assert result["resumes"] > 0 and result["retried"] > 0, result
    assert result["helpers_watched"] > 0, result  # the nodes' bot workers were looked after
