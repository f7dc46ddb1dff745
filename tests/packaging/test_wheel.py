"""Issue 25.7: the wheel installed top-level packages named ``server``, ``protocol``,
``engine``, ``ai``, ``cli`` and ``clients``, names that shadow (or are shadowed by) other
distributions'. The project's build backend (build_backend/namespaced_wheel.py) puts them
under ``cardavia_tarot``: the wheel is built, installed in a fresh environment, every module
of it imported there, and its ``tarot`` serves the browser client and plays a deal.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import time
import urllib.request
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.local_servers import free_port, stop_process

ROOT = Path(__file__).resolve().parents[2]
DOCKER_IGNORED = shutil.ignore_patterns("__pycache__", "node_modules", "*.egg-info")
# Every module of the installed package imported; none of the checkout's names loaded. The
# migrations' env.py runs Alembic when imported: Alembic loads them by path (tarot serve).
IMPORT_ALL = """
import json, pkgutil, sys, importlib
import cardavia_tarot
names = [
    m.name for m in pkgutil.walk_packages(cardavia_tarot.__path__, "cardavia_tarot.")
    if ".migrations" not in m.name
]
for name in names:
    importlib.import_module(name)
project = {"engine", "protocol", "server", "ai", "clients", "cli"}
print(json.dumps({
    "imported": len(names),
    "top_level": sorted(m for m in sys.modules if m.split(".")[0] in project),
    "file": cardavia_tarot.__file__,
}))
"""
MY_BOT = """from cardavia_tarot.clients.python import Bot


class Last(Bot):
    name = "last card"

    def play(self, view, cards):
        return cards[-1]
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("dist")
    build = [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q"]
    subprocess.run([*build, "--no-build-isolation", "-w", str(folder)], check=True)
    (built,) = folder.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment holding the wheel; its dependencies are the test environment's
    site-packages as a plain path (so the checkout's editable finder there is not run)."""
    env = tmp_path_factory.mktemp("env")
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps"]
    subprocess.run([*install, "-q", str(wheel)], check=True)
    return env


@pytest.fixture
def outside(tmp_path: Path) -> Iterator[dict[str, str]]:
    """An environment for the installed commands run from a folder outside the checkout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "TAROT_"))}
    yield {**env, "HOME": str(tmp_path)}


def test_the_wheel_holds_one_top_level_package(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} == {
        "cardavia_tarot",
        "cardavia_tarot-0.1.0.dist-info",
    }
    (entry_points,) = (n for n in names if n.endswith("entry_points.txt"))
    assert b"tarot = cardavia_tarot.cli.main:main" in zipfile.ZipFile(wheel).read(entry_points)
    # The browser client and the migrations travel with the code.
    assert "cardavia_tarot/clients/web/index.html" in names
    assert any(n.startswith("cardavia_tarot/server/history/migrations/versions/") for n in names)


def test_every_installed_module_imports_under_the_namespace_alone(
    installed: Path, tmp_path: Path, outside: dict[str, str]
) -> None:
    ran = subprocess.run(
        [installed / "bin" / "python", "-c", IMPORT_ALL],
        cwd=tmp_path,
        env=outside,
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(ran.stdout)
    assert found["top_level"] == [], found
    assert found["file"].startswith(str(installed)), found  # not the checkout's
    assert found["imported"] > 250, found


def test_the_installed_tarot_serves_the_page_and_plays_a_deal_with_a_bot_of_its_user(
    installed: Path, tmp_path: Path, outside: dict[str, str]
) -> None:
    port = free_port()
    tarot = str(installed / "bin" / "tarot")
    serve = [tarot, "serve", "--port", str(port), "--ai-pause", "0"]
    db = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    server = subprocess.Popen(
        [*serve, "--db", db], cwd=tmp_path, env=outside, stderr=subprocess.PIPE
    )
    try:
        page = fetch(f"http://127.0.0.1:{port}/", server)
        assert "<html" in page.lower()
        # A bot of the user's own, beside its file, imports the installed client library.
        (tmp_path / "mybot.py").write_text(MY_BOT)
        bot = [tarot, "bot", "--server", f"ws://127.0.0.1:{port}/"]
        played = subprocess.run(
            [*bot, "--table", "new", "--start", "--policy", "mybot:Last"],
            cwd=tmp_path,
            env=outside,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert played.returncode == 0, played.stderr
        result = json.loads(played.stdout.strip().splitlines()[-1])
        assert len(result["totals"]) == 4 and sum(result["totals"]) == 0, result
    finally:
        stop_process(server)
        if server.stderr is not None:
            server.stderr.close()


def fetch(url: str, server: subprocess.Popen[bytes]) -> str:
    """The page at ``url`` once the server listens (its error output if it died first)."""
    deadline = time.monotonic() + 30
    while True:
        if server.poll() is not None:
            raise AssertionError(server.stderr.read().decode() if server.stderr else "")
        try:
            with urllib.request.urlopen(url, timeout=2) as reply:
                return str(reply.read().decode())
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_a_wheel_built_from_the_sdist_is_namespaced_too(tmp_path: Path) -> None:
    """The sdist carries the backend, so a wheel built from it (as pip does from PyPI's
    sdist) gets the same one top-level package."""
    build = "import sys; sys.path.insert(0, 'build_backend'); import namespaced_wheel as b;"
    made = subprocess.run(
        [sys.executable, "-c", f"{build} print(b.build_sdist({str(tmp_path)!r}))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    sdist = tmp_path / made.stdout.strip().splitlines()[-1]
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path, filter="data")
    (unpacked,) = (p for p in tmp_path.iterdir() if p.is_dir())
    assert (unpacked / "build_backend" / "namespaced_wheel.py").exists()
    wheels = tmp_path / "wheels"
    build_wheel = [sys.executable, "-m", "pip", "wheel", str(unpacked), "--no-deps", "-q"]
    subprocess.run([*build_wheel, "--no-build-isolation", "-w", str(wheels)], check=True)
    (wheel,) = wheels.glob("*.whl")
    assert {n.split("/")[0] for n in zipfile.ZipFile(wheel).namelist()} == {
        "cardavia_tarot",
        "cardavia_tarot-0.1.0.dist-info",
    }


def test_the_dockerfile_copies_what_the_wheel_is_built_from(tmp_path: Path) -> None:
    """Its ``pip install .`` sees only what it copies: the build backend was left out once."""
    context = tmp_path / "src"
    context.mkdir()
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        if line.startswith("COPY "):
            *sources, target = line.split()[1:]
            for source in sources:
                into = context / target / source if target.endswith("/") else context / target
                if (ROOT / source).is_dir():
                    shutil.copytree(ROOT / source, into, ignore=DOCKER_IGNORED)
                else:
                    shutil.copy2(ROOT / source, into)
    build = [sys.executable, "-m", "pip", "wheel", str(context), "--no-deps", "-q"]
    subprocess.run([*build, "--no-build-isolation", "-w", str(tmp_path / "wheels")], check=True)
    (wheel,) = (tmp_path / "wheels").glob("*.whl")
    assert "cardavia_tarot/cli/main.py" in zipfile.ZipFile(wheel).namelist()
