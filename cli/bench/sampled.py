"""``python -m cli.bench.sampled OUT MODULE [ARGS...]``: run MODULE under a ``Sampler``.

MODULE runs as ``__main__`` (as ``python -m MODULE ARGS...`` would) while the
sampler counts its stacks; OUT, a folded profile (``cli.bench.sampler``), is
rewritten every 2 seconds so that a process killed outright still leaves recent
figures, and once more when the module returns or exits (``sys.exit`` and
SIGTERM, turned into an exit, come back through ``run_module``).
"""

from __future__ import annotations

import runpy
import signal
import sys
import threading
from types import FrameType

from .sampler import Sampler

USAGE = "usage: python -m cli.bench.sampled OUT MODULE [ARGS...]"
WRITE_EVERY_S = 2.0


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0].startswith("-") or argv[1].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    out, module, *args = argv
    launcher = {runpy.run_module.__code__.co_filename, main.__code__.co_filename}
    sampler = Sampler(hidden_roots=launcher)
    stop_writing = threading.Event()
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        # SIGTERM's default ends the process at once; as an exception, the last write
        # below still runs (a module that handles SIGTERM itself replaces this).
        signal.signal(signal.SIGTERM, exit_on_term)
    threading.Thread(target=keep_writing, args=(sampler, out, stop_writing), daemon=True).start()
    sys.argv = [module, *args]
    sampler.start()
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:
        sampler.stop()
        stop_writing.set()
        sampler.write(out)
    return 0


def keep_writing(sampler: Sampler, out: str, stop: threading.Event) -> None:
    while not stop.wait(WRITE_EVERY_S):
        sampler.write(out)


def exit_on_term(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
