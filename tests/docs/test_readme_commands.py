"""The README's `tarot` command table is complete and correct, against the real parser.

Every command (``tarot bench server``, ``tarot archive export``...) has a row;
a row names every option of its commands, and only options they have. A new
command or option without its row fails here.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from cli.main import build_parser

ROOT = Path(__file__).resolve().parents[2]
# An option as argparse spells them: lower case and hyphens (``tsc --checkJs`` is not ours).
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*(?![\w])")


def _commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> dict[str, argparse.ArgumentParser]:
    """Each command that runs ("bench server"), with its parser."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: dict[str, argparse.ArgumentParser] = {}
            for name, sub in action.choices.items():
                found |= _commands(sub, (*path, name))
            return found
    return {" ".join(path): parser}


def _options(parser: argparse.ArgumentParser) -> set[str]:
    flags = {flag for action in parser._actions for flag in action.option_strings}
    return {flag for flag in flags if flag.startswith("--")} - {"--help"}


def _named(cell: str, commands: dict[str, argparse.ArgumentParser]) -> set[str]:
    """The commands a cell names (`tarot bench server ...`; unknown words kept, to fail)."""
    return {
        max((c for c in commands if f"{words} ".startswith(f"{c} ")), key=len, default=words)
        for words in re.findall(r"`tarot ([\w-]+(?: [\w-]+)?)", cell)
    }


def _rows() -> list[tuple[set[str], set[str], str]]:
    """Each row of the table: the commands it is about (its first cell), every command
    it names (an option of another command may be quoted), and the whole row."""
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## The `tarot` command\n")[1].split("\n## ")[0]
    commands = _commands(build_parser())
    rows = []
    for row in re.findall(r"^\| `tarot .+$", section, flags=re.M):
        rows.append((_named(row.split(" | ")[0], commands), _named(row, commands), row))
    return rows


def test_every_command_has_a_row() -> None:
    named = {command for about, _, _ in _rows() for command in about}
    assert set(_commands(build_parser())) <= named, set(_commands(build_parser())) - named


def test_every_row_names_real_commands_and_options() -> None:
    commands = _commands(build_parser())
    for _, named, row in _rows():
        assert named <= set(commands), (named - set(commands), row)
        real = set().union(*(_options(commands[c]) for c in named))
        flags = set(FLAG.findall(row))
        assert flags <= real, (sorted(flags - real), row)


def test_every_option_is_named_in_its_commands_row() -> None:
    commands = _commands(build_parser())
    for about, _, row in _rows():
        for command in about:
            missing = _options(commands[command]) - set(FLAG.findall(row))
            assert not missing, (command, sorted(missing))
