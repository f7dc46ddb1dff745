"""The in-process sampler (``cli.bench.sampler``) and its launcher (``cli.bench.sampled``).

Real ticks of the process's CPU time and real subprocesses: a busy function
must be what the samples name.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from cli.bench.sampler import Sampler, parse_folded, short_path, summary
from cli.local_servers import ROOT

FOLDED_LINE = re.compile(r"^\S.* \d+$")
BUSY_MODULE = """
import sys
import time


def busy_loop(cpu_seconds):
    end = time.process_time() + cpu_seconds
    total = 0
    while time.process_time() < end:
        total += sum(range(100))
    return total


if __name__ == "__main__":
    print(sys.argv[1:])
    busy_loop(float(sys.argv[1]))
"""


def spin_for(cpu_seconds: float) -> int:
    end = time.process_time() + cpu_seconds
    total = 0
    while time.process_time() < end:
        total += sum(range(100))
    return total


def python_module(*args: str, pythonpath: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(pythonpath), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_a_sampler_names_the_busy_function_and_writes_stack_count_lines(tmp_path: Path) -> None:
    sampler = Sampler()
    sampler.start(0.002)
    try:
        spin_for(0.3)
    finally:
        sampler.stop()
    out = tmp_path / "profile.folded"
    sampler.write(out)
    lines = out.read_text().splitlines()
    assert lines and all(FOLDED_LINE.match(line) for line in lines), lines
    stacks = parse_folded(out.read_text())
    total = sum(count for _, count in stacks)
    assert total == sum(sampler.counts.values()) > 10
    # Root first; the leaf's caller is this file's function, its path from the project's root.
    busy = sum(count for frames, count in stacks if any(f.startswith("spin_for (") for f in frames))
    assert busy > total / 2
    assert any("spin_for (tests/cli/test_bench_sampler.py:" in line for line in lines)
    assert not list(tmp_path.glob(".*")), "the temporary file was replaced into place"


def test_paths_are_shown_from_their_package_or_the_project_root() -> None:
    venv = "/x/.venv/lib/python3.11/site-packages/websockets/server.py"
    assert short_path(venv) == "websockets/server.py"
    assert short_path("/usr/lib/python3.11/asyncio/events.py") == "asyncio/events.py"
    assert short_path(str(ROOT / "server" / "app.py")) == "server/app.py"
    assert short_path("<frozen runpy>") == "<frozen runpy>"


def test_summary_gives_each_function_s_self_and_inclusive_share() -> None:
    folded = textwrap.dedent(
        """\
        main (a.py:1);work (a.py:5);leaf (b.py:9) 6
        main (a.py:1);work (a.py:6) 2
        main (a.py:2);rec (a.py:3);rec (a.py:4) 2
        """
    )
    # Lines stripped: work at lines 5 and 6 is one row; rec counts once per stack inclusive.
    assert summary(folded, top=3) == "\n".join(
        [
            "10 samples",
            "self",
            "  60.0%  leaf (b.py)",
            "  20.0%  work (a.py)",
            "  20.0%  rec (a.py)",
            "inclusive",
            " 100.0%  main (a.py)",
            "  80.0%  work (a.py)",
            "  60.0%  leaf (b.py)",
        ]
    )


def test_sampled_runs_a_module_as_main_with_its_arguments_and_writes_its_stacks(
    tmp_path: Path,
) -> None:
    (tmp_path / "busy_module.py").write_text(BUSY_MODULE)
    out = tmp_path / "busy.folded"
    done = python_module(
        "cli.bench.sampled", str(out), "busy_module", "0.3", "--flag", pythonpath=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['0.3', '--flag']"
    lines = out.read_text().splitlines()
    assert any("busy_loop (" in line for line in lines)
    # The launcher's frames (runpy, cli.bench.sampled) are left out: the module is the root.
    assert all(line.startswith("<module> (") and "busy_module.py" in line for line in lines)
    assert "sampled.py" not in out.read_text()


def test_sampled_refuses_bad_arguments_with_its_usage(tmp_path: Path) -> None:
    done = python_module("cli.bench.sampled", str(tmp_path / "out.folded"))
    assert done.returncode == 2 and done.stderr.startswith("usage: ")


def test_the_summary_command_refuses_a_missing_or_malformed_file_in_one_line(
    tmp_path: Path,
) -> None:
    malformed = tmp_path / "bad.folded"
    malformed.write_text("main (a.py:1);work (a.py:5) 3\nthis line has no count\n")
    for path, reason in ((tmp_path / "missing.folded", "cannot read"), (malformed, "line 2")):
        done = python_module("cli.bench.sampler", str(path))
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and reason in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_the_summary_command_prints_the_top_functions(tmp_path: Path) -> None:
    profile = tmp_path / "p.folded"
    profile.write_text("main (a.py:1);work (a.py:5) 3\nmain (a.py:1) 1\n")
    done = python_module("cli.bench.sampler", str(profile), "--top", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "4 samples",
        "self",
        "  75.0%  work (a.py)",
        "inclusive",
        " 100.0%  main (a.py)",
    ]
