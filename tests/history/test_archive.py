"""``tarot archive``: import the golden records, export them, each re-scores to its sheet."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncEngine

from server.history import store_deal, stored_deals
from server.history.deals import count_rows

from .golden import NAMES, RECORDS, finished_deals


def tarot(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "cli.main", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def tarot_at_once(*commands: tuple[str, ...]) -> list[subprocess.CompletedProcess[str]]:
    """Independent ``tarot`` commands side by side: each mostly starts up (its imports)."""
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "cli.main", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for args in commands
    ]
    done = []
    for run in runs:
        out, err = run.communicate(timeout=120)
        done.append(subprocess.CompletedProcess(run.args, run.returncode, out, err))
    return done


def golden_files() -> list[str]:
    return [str(RECORDS / f"{name}.json") for name in NAMES]


async def test_import_of_the_golden_records_then_export_rescores(
    engine: AsyncEngine, db_url: str, tmp_path: Path
) -> None:
    done = tarot("archive", "import", "--db", db_url, *golden_files())
    assert (done.returncode, done.stderr) == (0, f"{len(NAMES)} deals stored, 0 already there\n")
    again = tarot("archive", "import", "--db", db_url, *golden_files())
    assert again.stderr == f"0 deals stored, {len(NAMES)} already there\n"
    assert (await count_rows(engine))["deals"] == len(NAMES)

    exported = tarot("archive", "export", "--db", db_url)
    assert exported.returncode == 0, exported.stderr
    lines = exported.stdout.splitlines()
    stored = {json.dumps(d.record, sort_keys=True): d.sheet async for d in stored_deals(engine)}
    assert len(lines) == len(NAMES)
    # Each line is a record `tarot score` reads, and it scores as stored (one `tarot score`
    # of every line, each in a file: not a process per line).
    files = [tmp_path / f"line-{i}.json" for i in range(len(lines))]
    for file, line in zip(files, lines, strict=True):
        file.write_text(line)
    scored = tarot("score", *map(str, files))
    assert scored.returncode == 0, scored.stdout
    sheets = [json.loads(out) for out in scored.stdout.splitlines()]
    assert [sheet.pop("file") for sheet in sheets] == list(map(str, files))
    for line, sheet in zip(lines, sheets, strict=True):
        assert sheet == stored[json.dumps(json.loads(line), sort_keys=True)]
    # What export prints imports back (JSON Lines), as the same deals.
    dump = tmp_path / "dump.jsonl"
    dump.write_text(exported.stdout)
    back = tarot("archive", "import", "--db", db_url, str(dump))
    assert back.stderr == f"0 deals stored, {len(NAMES)} already there\n"


async def test_export_by_player_and_since(engine: AsyncEngine, db_url: str) -> None:
    deals = finished_deals()
    for deal in deals:
        await store_deal(engine, deal)
    export = ("archive", "export", "--db", db_url, "--player")
    bob, nobody, bad = tarot_at_once(
        (*export, "Bob", "--since", "2026-12-01T12:10"), (*export, "Nobody"), (*export, "\x1b[2J")
    )
    assert bob.returncode == 0, bob.stderr
    assert bob.stdout.splitlines() == [
        json.dumps(d.record, separators=(",", ":")) for d in deals[10:]
    ]
    assert (nobody.returncode, nobody.stdout) == (0, "")
    assert bad.returncode == 1 and "control character" in bad.stderr


async def test_a_bad_record_is_named_and_nothing_is_stored(
    engine: AsyncEngine, db_url: str, tmp_path: Path
) -> None:
    record = json.loads((RECORDS / "prise_made.json").read_text())
    record["plays"] = record["plays"][:-1]
    lines = tmp_path / "some.jsonl"
    good = json.dumps(json.loads((RECORDS / f"{NAMES[1]}.json").read_text()))
    lines.write_text(f"{good}\n{json.dumps(record)}\n")
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    imports = ("archive", "import", "--db", db_url)
    done, not_json, missing = tarot_at_once(
        (*imports, *golden_files()[:2], str(lines)),
        (*imports, str(garbage)),
        (*imports, str(tmp_path / "nope.json")),
    )
    assert done.returncode == 1
    assert done.stderr.startswith(f"tarot archive: {lines}:2: not a valid tarot-record/1: ")
    assert "ends before the deal is over" in done.stderr
    assert not_json.returncode == 1 and "not valid JSON" in not_json.stderr
    assert missing.returncode == 1 and "cannot read" in missing.stderr
    assert (await count_rows(engine))["deals"] == 0


def test_a_bad_database_url_is_refused(tmp_path: Path) -> None:
    cases = (
        ("mysql://db/tarot", "must be sqlite:///PATH or postgresql://"),
        ("sqlite://", "needs a file"),
        ("postgresql://u:secret@host:notaport/x", "cannot be read"),
        ("postgresql://u:secret@no-such-host.invalid/x", "did not answer"),
        ("postgresql://u:secret@127.0.0.1:1/x", "did not answer"),
    )
    runs = tarot_at_once(*(("archive", "export", "--db", url) for url, _ in cases))
    for run, (_, why) in zip(runs, cases, strict=True):
        assert run.returncode == 1 and why in run.stderr, run.stderr
        assert "secret" not in run.stderr
