"""An in-process statistical profiler: SIGPROF ticks record the main thread's stack.

py-spy on this machine lands its samples at system-call boundaries (it gave
``getpid()`` 11% of a node's samples, where a microbenchmark measures 0.14 µs a
call), so its figures mislead. A timer on the process's own CPU time
(``ITIMER_PROF``) with a Python signal handler reads the interrupted frame from
inside the process instead. Python runs the handler at the next bytecode of the
main thread, so time spent in C is charged to the Python line that called it,
and only the main thread's stack is seen: the timer counts the whole process's
CPU, so another thread's (a database driver's, say) is charged to wherever the
main thread was, often its wait in ``select``.

``Sampler`` writes Brendan Gregg's folded format (``root;...;leaf count``, one
stack a line; each frame ``function (path:line)``), which flame-graph tools
read. ``python -m cli.bench.sampler FILE [--top N]`` prints the functions with
the largest self and inclusive shares of a folded file.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Collection
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

from cli.argtypes import at_least

ROOT = str(Path(__file__).resolve().parents[2])
PYTHON_LIB = re.compile(r"/lib/python3\.\d+/")
FRAME_LINE = re.compile(r"^(.*) \((.*):\d+\)$")

Stack = tuple[tuple[CodeType, int], ...]  # leaf first, as the handler walks it


class Sampler:
    """Counts the main thread's stacks, one per tick of the process's CPU time.

    ``hidden_roots``: files (``co_filename``) whose frames at the root of every
    stack are left out: a launcher's (``cli.bench.sampled``, runpy) are in every
    sample and say nothing.
    """

    def __init__(self, hidden_roots: Collection[str] = ()) -> None:
        self.counts: dict[Stack, int] = {}
        self.hidden_roots = frozenset(hidden_roots)
        self._labels: dict[CodeType, str] = {}
        self._previous: Any = None
        self._write_lock = threading.Lock()

    def start(self, interval_s: float = 0.002) -> None:
        """Tick every ``interval_s`` of the process's CPU time (call from the main thread)."""
        self._previous = signal.signal(signal.SIGPROF, self._tick)
        # SA_RESTART: C libraries that do not retry on EINTR (sqlite, hiredis) are not
        # disturbed by the ticks.
        signal.siginterrupt(signal.SIGPROF, False)
        signal.setitimer(signal.ITIMER_PROF, interval_s, interval_s)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0)
        # A tick already raised must not meet SIGPROF's default action, which kills.
        previous = self._previous
        keep = previous if previous not in (None, signal.SIG_DFL) else signal.SIG_IGN
        signal.signal(signal.SIGPROF, keep)

    def _tick(self, signum: int, frame: FrameType | None) -> None:
        # Code objects and line numbers only: the text is made at write time, off the tick.
        stack = []
        while frame is not None:
            stack.append((frame.f_code, frame.f_lineno or 0))
            frame = frame.f_back
        key = tuple(stack)
        self.counts[key] = self.counts.get(key, 0) + 1

    def folded(self) -> str:
        """The stacks so far, one ``root;...;leaf count`` line each."""
        # A C-level copy: the handler may add a stack meanwhile (another thread writes).
        counts = self.counts.copy()
        merged: Counter[str] = Counter()
        for stack, count in counts.items():
            merged[self._line(stack)] += count
        lines = sorted(merged.items(), key=lambda item: (-item[1], item[0]))
        return "".join(f"{stack} {count}\n" for stack, count in lines if stack)

    def write(self, path: str | os.PathLike[str]) -> None:
        """The folded stacks into ``path``, replaced whole: a reader never sees half a file."""
        target = Path(path)
        with self._write_lock:
            text = self.folded()
            fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
            try:
                with os.fdopen(fd, "w") as f:
                    f.write(text)
                os.replace(temp, target)
            except BaseException:
                os.unlink(temp)
                raise

    def _line(self, stack: Stack) -> str:
        frames = list(reversed(stack))
        while frames and frames[0][0].co_filename in self.hidden_roots:
            del frames[0]
        return ";".join(f"{self._label(code)}:{line})" for code, line in frames)

    def _label(self, code: CodeType) -> str:
        """``function (path`` of a code object, its line to be added."""
        label = self._labels.get(code)
        if label is None:
            label = self._labels[code] = f"{code.co_qualname} ({short_path(code.co_filename)}"
        return label


def short_path(filename: str) -> str:
    """A source file as a reader knows it: from its package in site-packages, from the
    project's root, or from the standard library's folder."""
    if "site-packages/" in filename:
        return filename.rpartition("site-packages/")[2]
    real = os.path.realpath(filename) if filename.startswith("/") else filename
    if real.startswith(ROOT + os.sep):
        return real[len(ROOT) + 1 :]
    found = PYTHON_LIB.search(filename)
    return filename[found.end() :] if found else filename


def parse_folded(text: str) -> list[tuple[list[str], int]]:
    """``stack count`` lines as (frames root first, count); ValueError names a bad line."""
    stacks = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            raise ValueError(f"line {number} is not 'stack count': {line[:80]!r}")
        stacks.append((stack.split(";"), int(count)))
    return stacks


def function_of(frame: str) -> str:
    """``function (path:line)`` without its line: one function is one row."""
    found = FRAME_LINE.match(frame)
    return f"{found[1]} ({found[2]})" if found else frame


def summary(folded_text: str, top: int) -> str:
    """The ``top`` functions by self and by inclusive share of the samples."""
    own: Counter[str] = Counter()
    within: Counter[str] = Counter()
    total = 0
    for frames, count in parse_folded(folded_text):
        functions = [function_of(frame) for frame in frames]
        total += count
        own[functions[-1]] += count
        for function in set(functions):  # a recursive function once per stack
            within[function] += count
    lines = [f"{total} samples"]
    for title, counter in (("self", own), ("inclusive", within)):
        lines.append(title)
        for function, count in counter.most_common(top):
            lines.append(f"{100 * count / total:6.1f}%  {function}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m cli.bench.sampler", description="the top functions of a folded profile"
    )
    parser.add_argument("file", type=Path, help="a folded profile (tarot bench server --profile)")
    parser.add_argument(
        "--top", type=at_least(1), default=20, help="rows in each table (default 20)"
    )
    args = parser.parse_args(argv)
    try:
        text = args.file.read_text()
        report = summary(text, args.top)
    except OSError as e:
        return refuse(f"cannot read {args.file}: {e.strerror or e}")
    except ValueError as e:  # UnicodeDecodeError included
        return refuse(f"{args.file} is not a folded profile: {e}")
    print(report)
    return 0


def refuse(message: str) -> int:
    print(f"sampler: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
