"""A PostgreSQL server of the test's own (initdb in a temporary folder), to stop and start.

The shared test server cannot be stopped under other tests, so the outage
tests run their own: Debian's binaries, a free loopback port, trust auth, the
socket in the data folder. PostgreSQL refuses to run as root: as root it runs
as the ``postgres`` user (runuser).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

VERSIONS = Path("/usr/lib/postgresql")


def binaries() -> Path:
    found = sorted(VERSIONS.glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if not found:
        raise RuntimeError("no PostgreSQL here: python3 tasks.py test installs it")
    return found[-1].parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class OwnPostgres:
    """In a folder of its own under /tmp (pytest's are root's alone, closed to postgres)."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="tarot-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self.bin = binaries()
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self._as, *args], capture_output=True, text=True, timeout=60)
        if done.returncode:
            raise RuntimeError(f"{Path(args[0]).name} failed: {done.stderr or done.stdout}")

    def create(self) -> None:
        if self._as:
            shutil.chown(self.folder, "postgres", "postgres")
        initdb = str(self.bin / "initdb")
        self._run(initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data} -c fsync=off"
        pg_ctl = str(self.bin / "pg_ctl")
        self._run(
            pg_ctl,
            "-D",
            str(self.data),
            "-o",
            options,
            "-w",
            "-l",
            str(self.folder / "log"),
            "start",
        )

    def is_running(self) -> bool:
        status = [*self._as, str(self.bin / "pg_ctl"), "-D", str(self.data), "status"]
        return subprocess.run(status, capture_output=True, timeout=30).returncode == 0

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
