"""A real terminal for the terminal client's tests: a tmux server of the test's own.

``tarot play`` runs in it as a process, exactly as a user starts it; the test
reads the screen (``capture-pane``), every byte the program wrote to the
terminal (``pipe-pane``), and presses keys (``send-keys``).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The `tarot` command of the environment the tests run in, as a user would type it.
TAROT = Path(sys.executable).parent / "tarot"


class Terminal:
    """One tmux session of ``width`` x ``height`` running one command; ``close()`` ends it."""

    def __init__(self, workdir: Path, width: int = 120, height: int = 40) -> None:
        binary = shutil.which("tmux")
        assert binary is not None, "the terminal tests need tmux (apt-get install tmux)"
        self.binary = binary
        self.socket = f"tarot-test-{os.getpid()}-{time.monotonic_ns()}"
        self.width, self.height = width, height
        self.raw = workdir / "terminal.raw"
        self.status = workdir / "terminal.status"

    def tmux(self, *args: str) -> str:
        # COLUMNS and LINES (set under pytest) would override the terminal's real size.
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        done = subprocess.run(
            [self.binary, "-L", self.socket, *args],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
        return done.stdout

    def start(self, *argv: str) -> Terminal:
        """Run ``argv`` in a new session, as a shell would (which notes its exit status)."""
        status = shlex.quote(str(self.status))
        command = f"{shlex.join(argv)}; echo $? > {status}.part && mv {status}.part {status}"
        self.tmux(
            *("-f", "/dev/null", "new-session", "-d", "-s", "t", "-c", str(ROOT)),
            *("-x", str(self.width), "-y", str(self.height), command),
        )
        self.tmux("pipe-pane", "-t", "t", "-o", f"cat >> {shlex.quote(str(self.raw))}")
        return self

    def screen(self) -> str:
        """The screen as text, one line per row."""
        return self.tmux("capture-pane", "-p", "-t", "t")

    def written(self) -> bytes:
        """Every byte the program wrote to the terminal so far."""
        return self.raw.read_bytes() if self.raw.exists() else b""

    def processes(self) -> dict[int, str]:
        """Every process the command started (its own included): pid -> command line."""
        parents: dict[int, list[int]] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # ended meanwhile
            parents.setdefault(parent, []).append(int(stat.parent.name))
        found: dict[int, str] = {}
        todo = [int(self.tmux("display-message", "-p", "-t", "t", "#{pane_pid}"))]
        while todo:
            pid = todo.pop()
            try:
                found[pid] = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            todo += parents.get(pid, [])
        return found

    def press(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def wait_for(self, pattern: str, seconds: float = 60.0) -> re.Match[str]:
        """The first match of ``pattern`` on the screen, waiting for it to appear."""
        deadline = time.monotonic() + seconds
        while True:
            screen = self.screen()
            found = re.search(pattern, screen)
            if found is not None:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} not on the screen after {seconds} s:\n{screen}")
            time.sleep(0.2)

    def wait_written(self, data: bytes, seconds: float = 60.0) -> None:
        """Wait until the program has written ``data`` to the terminal."""
        deadline = time.monotonic() + seconds
        while data not in self.written():
            if time.monotonic() > deadline:
                raise AssertionError(f"{data!r} not written after {seconds} s:\n{self.screen()}")
            time.sleep(0.2)

    def exit_status(self, seconds: float = 20.0) -> int:
        """The command's exit status, once it has exited."""
        deadline = time.monotonic() + seconds
        while not self.status.exists():
            if time.monotonic() > deadline:
                raise AssertionError(f"still running after {seconds} s:\n{self.screen()}")
            time.sleep(0.1)
        return int(self.status.read_text())

    def close(self) -> None:
        """End the session and whatever still runs in it (SIGHUP)."""
        subprocess.run([self.binary, "-L", self.socket, "kill-server"], capture_output=True)
