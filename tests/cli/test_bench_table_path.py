"""``tarot bench table-path``: the table's side of an action, timed in one process."""

from __future__ import annotations

import gc
import json

import pytest

from cli.bench import table_path
from cli.main import main
from server.node import fanout
from server.table import transitions


def test_table_path_prints_the_time_per_action_and_each_stage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "table-path", "--tables", "3", "--actions", "400", "--runs", "2"]) == 0
    text = capsys.readouterr().out
    assert "µs per action" in text
    assert all(label in text for label, _, _ in table_path.STAGES)

    args = ["bench", "table-path", "--tables", "3", "--actions", "400", "--runs", "1", "--json"]
    assert main(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["actions"] == 400 and result["runs"] == 1
    assert result["us_per_action_runs"] == [result["us_per_action"]]
    stages = result["stages_us_per_action"]
    assert set(stages) == {label for label, _, _ in table_path.STAGES}
    assert all(us > 0 for us in stages.values())  # every stage ran and was timed
    # Disjoint parts of the very transacts the total times, so less than it.
    assert sum(stages.values()) < result["us_per_action"]


def test_the_collector_is_put_back_after_the_run() -> None:
    """The bench sets the collector as a node does; the process it ran in (these tests')
    gets its own settings back."""
    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    assert main(["bench", "table-path", "--tables", "2", "--actions", "100", "--runs", "1"]) == 0
    assert gc.get_threshold() == threshold
    assert gc.get_freeze_count() == frozen


def test_the_timed_stages_are_put_back_after_the_run() -> None:
    act, carry = transitions.act, fanout.Fanout.carry
    with table_path.timed_stages(table_path.Stages(float)):
        assert transitions.act is not act and fanout.Fanout.carry is not carry
    assert transitions.act is act and fanout.Fanout.carry is carry


def test_table_path_refuses_too_few_actions(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "table-path", "--actions", "5"])
    assert exit_.value.code == 2
    assert "must be at least 100" in capsys.readouterr().err
