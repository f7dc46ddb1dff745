"""``tarot duplicate create / list / close`` and the events in ``tarot archive export``."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from cli.main import main
from server.history import EventResult, enter_event, migrate, open_engine, record_result


async def _play(url: str, event_id: int) -> None:
    """Two AI entries of the tables event play deal 0 in seat 2: -40 and 120."""
    engine = open_engine(url)
    try:
        await migrate(engine)
        for score in (-40, 120):
            entry = await enter_event(engine, event_id, ai_level="strong")
            result = EventResult(entry, 0, 2, score, "prise", f"t{score + 100}", 0)
            await record_result(engine, result)
    finally:
        await engine.dispose()


def test_an_operator_makes_lists_and_closes_an_event_and_exports_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'history.db'}"
    opens = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    make = ["duplicate", "create", "--db", url, "--name", "Club night", "--deals", "2"]
    assert main([*make, "--kind", "tables", "--opens", opens]) == 0
    event_id = int(capsys.readouterr().out)
    assert main(["duplicate", "list", "--db", url]) == 0
    listed = capsys.readouterr().out
    assert listed.startswith(f"{event_id}\tClub night\ttables\t2 deals\t") and "seed" not in listed
    asyncio.run(_play(url, event_id))

    assert main(["archive", "export", "--db", url]) == 0
    assert "duplicate_event" not in capsys.readouterr().out  # open: secret
    assert main(["duplicate", "close", "--db", url, str(event_id)]) == 0
    assert capsys.readouterr().out == f"event {event_id} scored: 2 entries\n"
    assert main(["duplicate", "close", "--db", url, str(event_id)]) == 0
    assert "scored already" in capsys.readouterr().out

    assert main(["archive", "export", "--db", url]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    (event,) = [line["duplicate_event"] for line in lines if "duplicate_event" in line]
    assert event["name"] == "Club night" and event["kind"] == "tables" and len(event["seed"]) == 64
    assert [(s["rank"], s["mark"]) for s in event["standings"]] == [(1, 50.0), (2, 0.0)]
    assert sorted((r["score"], r["mark"]) for r in event["results"]) == [(-40, 0), (120, 100)]
    # An export with its events imports again: the events' lines are not records.
    exported = tmp_path / "export.jsonl"
    exported.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    assert main(["archive", "import", "--db", url, str(exported)]) == 0


def test_a_bad_event_is_refused_on_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'history.db'}"
    assert main(["duplicate", "create", "--db", url, "--name", "x", "--deals", "65"]) == 1
    assert capsys.readouterr().err == "tarot duplicate: an event has 1-64 deals, not 65\n"
    assert main(["duplicate", "close", "--db", url, "9"]) == 1
    assert capsys.readouterr().err == "tarot duplicate: no event 9\n"
