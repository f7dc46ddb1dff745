#!/usr/bin/env python3
"""Set up and run the project with nothing but Python 3.11+.

    python3 tasks.py serve   # venv + install, then `tarot serve` (browser: http://127.0.0.1:8765/)
    python3 tasks.py test [PYTEST ARGS]   # venv + install, then ruff, mypy and pytest; Redis
                                          # and Chromium only when the selected tests need them
    python3 tasks.py tarot ARGS...   # any `tarot` command inside the project's venv

The virtual environment lives in .venv/ and is reinstalled when pyproject.toml
changes. Standard library only: this file runs before anything is installed.

Which services a test run needs is read from the markers of the tests it selects
(``redis``, ``browser``, ``terminal``, ``postgres``, ``node``, ``nginx``; tests/conftest.py):
``python3 tasks.py test tests/engine`` or ``-m "not redis and not browser"``
installs and starts nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import venv
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"
STAMP = VENV / ".installed"
# TAROT_TEST_REDIS_PORT lets several checkouts run their tests side by side.
REDIS_PORT = int(os.environ.get("TAROT_TEST_REDIS_PORT", "6379"))
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
SERVICES_FILE = "TAROT_TEST_SERVICES_FILE"  # tests/conftest.py writes the markers there
POSTGRES_PORT = 5432  # tests/history/databases.py: TAROT_TEST_POSTGRES names another


def say(message: str) -> None:
    print(f"[tasks] {message}", flush=True)


def run(*args: str | Path, check: bool = True) -> int:
    return subprocess.run([str(a) for a in args], cwd=ROOT, check=check).returncode


def ensure_venv() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - this file runs before anything is checked
        sys.exit(f"Python 3.11+ is needed, this is {sys.version.split()[0]}")
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == want and PYTHON.exists():
        return
    if not has_pip():
        say("creating .venv")
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    say("installing the project and its dev dependencies")
    run(PYTHON, "-m", "pip", "install", "-q", "--upgrade", "pip")
    run(PYTHON, "-m", "pip", "install", "-q", "-e", ".[dev]")
    STAMP.write_text(want)


def has_pip() -> bool:
    """A usable venv (an interrupted creation leaves one without pip: start it again)."""
    if not PYTHON.exists():
        return False
    probe = [str(PYTHON), "-m", "pip", "--version"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


def redis_answers(port: int = REDIS_PORT) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def apt_install(*packages: str) -> None:
    if shutil.which("apt-get") is None:
        sys.exit(f"cannot install {' '.join(packages)}: no apt-get here; install them by hand")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run([*sudo, "apt-get", "update", "-q"], check=True, env=env)
    subprocess.run([*sudo, "apt-get", "install", "-y", "-q", *packages], check=True, env=env)


def ensure_redis() -> None:
    """The Redis tests need a real server: use the one on REDIS_PORT or start one."""
    if redis_answers():
        return
    if shutil.which("redis-server") is None:
        say("installing redis-server")
        apt_install("redis-server")
    say(f"starting redis-server on 127.0.0.1:{REDIS_PORT}")
    subprocess.run(
        [
            "redis-server",
            "--daemonize",
            "yes",
            "--bind",
            "127.0.0.1",
            "--port",
            str(REDIS_PORT),
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        check=True,
    )
    for _ in range(50):
        if redis_answers():
            return
        time.sleep(0.1)
    sys.exit(f"redis-server did not answer on 127.0.0.1:{REDIS_PORT}")


def postgres_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", POSTGRES_PORT), timeout=1):
            return True
    except OSError:
        return False


def ensure_postgres() -> None:
    """The history tests need a real PostgreSQL on 127.0.0.1:5432: Debian's, started here.

    The tests sign in as ``postgres`` with the password ``postgres`` over TCP
    (TAROT_TEST_POSTGRES names another server), so a server started here is
    given that password; one that already answers is used as it is.
    """
    if postgres_answers():
        return
    if not list(Path("/usr/lib/postgresql").glob("*/bin/postgres")):
        say("installing postgresql")
        apt_install("postgresql")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    say("starting postgresql")
    subprocess.run([*sudo, "service", "postgresql", "start"], check=False)
    if not _wait(postgres_answers, 10):  # no cluster yet (or it was removed): make one
        version = max(p.parts[-3] for p in Path("/usr/lib/postgresql").glob("*/bin/postgres"))
        subprocess.run([*sudo, "pg_createcluster", version, "main", "--start"], check=False)
    if not _wait(postgres_answers, 30):
        sys.exit(f"postgresql did not answer on 127.0.0.1:{POSTGRES_PORT}")
    password = "ALTER USER postgres PASSWORD 'postgres'"
    as_postgres = (
        ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else ["sudo", "-u", "postgres"]
    )
    subprocess.run([*as_postgres, "psql", "-q", "-c", password], check=True)


def _wait(answers: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if answers():
            return True
        time.sleep(0.2)
    return False


def find_chromium() -> str | None:
    named = os.environ.get("TAROT_CHROMIUM")
    if named:
        return named
    return next(filter(None, map(shutil.which, CHROMIUM_NAMES)), None)


def ensure_chromium() -> None:
    """Browser tests drive a real Chromium; Playwright's own download does not work here."""
    found = find_chromium()
    if found is None:
        say("installing chromium")
        apt_install("chromium")
        found = find_chromium()
    if found is None:
        sys.exit("no Chromium after installing it: set TAROT_CHROMIUM to its path")
    os.environ["TAROT_CHROMIUM"] = found


def services_needed(extra: list[str]) -> set[str]:
    """The service markers of the tests ``extra`` selects (all of them if it cannot tell)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "services.json"
        env = {**os.environ, SERVICES_FILE: str(out)}
        command = [str(PYTHON), "-m", "pytest", "--collect-only", "-q", *extra]
        subprocess.run(command, cwd=ROOT, env=env, capture_output=True, check=False)
        if not out.exists():  # collection failed: pytest will say why, with everything up
            return {"redis", "browser", "terminal", "postgres", "node", "nginx"}
        return set(json.loads(out.read_text()))


def ensure_tmux() -> None:
    """The terminal client's tests run ``tarot play`` in a real terminal: tmux's."""
    if shutil.which("tmux") is None:
        say("installing tmux")
        apt_install("tmux")


def ensure_node_tools() -> None:
    """The browser client's checks (tests/web): Node.js for its test runner, and the npm
    packages of package.json (TypeScript, pinned by package-lock.json) in node_modules/."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        say("installing nodejs and npm")
        apt_install("nodejs", "npm")
    lock = ROOT / "package-lock.json"
    stamp = ROOT / "node_modules" / ".tarot-installed"
    want = hashlib.sha256(lock.read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == want:
        return
    say("installing the npm packages of package.json (npm ci)")
    run("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
    stamp.write_text(want)


def ensure_nginx() -> None:
    """The balancer tests (tests/balancer) run Debian's nginx with deploy/nginx.conf; each
    test starts its own on a free port (the package's own service is left alone)."""
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        say("installing nginx")
        apt_install("nginx-light")


def workers(extra: list[str]) -> list[str]:
    """pytest-xdist's arguments: two test processes side by side on a machine with two
    cores or more (the suite waits on servers, browsers and Redis as much as it computes),
    each module's tests in one process (their module fixtures are made once); none when
    the arguments choose already, or TAROT_TEST_WORKERS says 0 or 1. A second worker gets
    a shared test Redis of its own (tests/worker_redis.py)."""
    chosen = any(a.startswith(("-n", "--numprocesses", "--dist")) for a in extra)
    wanted = os.environ.get("TAROT_TEST_WORKERS", str(min(os.cpu_count() or 1, 2)))
    if chosen or "no:xdist" in extra or not wanted.isdigit() or int(wanted) < 2:
        return []
    return ["-n", wanted, "--dist", "loadfile"]


def test(extra: list[str]) -> int:
    ensure_venv()
    os.environ.setdefault("TAROT_TEST_REDIS", f"redis://127.0.0.1:{REDIS_PORT}")
    needed = services_needed(extra)
    say(f"services the selected tests need: {', '.join(sorted(needed)) or 'none'}")
    if "redis" in needed:
        ensure_redis()
    if "browser" in needed:
        ensure_chromium()
    if "terminal" in needed:
        ensure_tmux()
    if "postgres" in needed:
        ensure_postgres()
    if "node" in needed:
        ensure_node_tools()
    if "nginx" in needed:
        ensure_nginx()
    steps: list[list[str | Path]] = [
        [BIN / "ruff", "check", "."],
        [BIN / "ruff", "format", "--check", "."],
        [BIN / "mypy", "."],
        [PYTHON, "-m", "pytest", *workers(extra), *extra],
    ]
    for step in steps:
        say(" ".join(str(Path(s).name) if i == 0 else str(s) for i, s in enumerate(step)))
        code = run(*step, check=False)
        if code:
            say(f"failed: {step[0]} exited {code}")
            return code
    return 0


def main(argv: list[str]) -> int:
    command, rest = (argv[0], argv[1:]) if argv else ("help", [])
    if command == "serve":
        ensure_venv()
        return run(BIN / "tarot", "serve", *rest, check=False)
    if command == "test":
        return test(rest)
    if command == "tarot":
        ensure_venv()
        return run(BIN / "tarot", *rest, check=False)
    print(__doc__)
    return 0 if command in ("help", "-h", "--help") else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
