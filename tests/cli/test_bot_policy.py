"""Issue 25.7: ``tarot bot --policy mybot:Cls`` finds ``mybot.py`` in the current folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cli.local_servers import free_port

MYBOT = """
from clients.python import Bot


class Cls(Bot):
    name = "mine"
"""


def test_a_policy_module_in_the_current_folder_is_found(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text(MYBOT)
    tarot = Path(sys.executable).parent / "tarot"  # the console script, as a user runs it
    server = f"ws://127.0.0.1:{free_port()}/"  # nobody there: the policy loaded, then this
    done = subprocess.run(
        [str(tarot), "bot", "--server", server, "--table", "new", "--policy", "mybot:Cls"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "cannot import 'mybot'" not in done.stderr, done.stderr
    assert done.returncode == 1 and "cannot reach" in done.stderr, done.stderr
