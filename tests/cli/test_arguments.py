"""A bad argument to any subcommand is a usage error naming the flag (exit 2);
nothing starts, nothing is left half done, and there is no traceback."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from annotated_types import MinLen

from cli.argtypes import invite_code
from cli.main import main
from protocol import models as m


@pytest.mark.parametrize(
    ("argv", "flag", "says"),
    [
        (["play", "--server", "http://127.0.0.1:8765/"], "--server", "ws:// or wss:// URL"),
        (["play", "--server", "127.0.0.1:8765"], "--server", "ws:// or wss:// URL"),
        (["play", "--server", "ws://127.0.0.1:99999/"], "--server", "Port out of range"),
        (["play", "--deals", "0"], "--deals", "must be at least 1, not 0"),
        (["play", "--deals", "two"], "--deals", "must be a whole number, not 'two'"),
        (["play", "--ai-pause", "-1"], "--ai-pause", "seconds, zero or more, not -1"),
        (["play", "--ai-pause", "nan"], "--ai-pause", "a finite number of seconds"),
        (["play", "--ai-pause", "1e400"], "--ai-pause", "a finite number of seconds"),
        (["play", "--ai-pause", "soon"], "--ai-pause", "a number of seconds"),
        (
            ["bot", "--server", "wss:/x", "--table", "new", "--policy", "ai:random"],
            "--server",
            "ws:// or wss:// URL",
        ),
        (
            ["bot", "--table", "new", "--policy", "ai:random", "--deals", "-2"],
            "--deals",
            "must be at least 1",
        ),
        (["arena", "random", "random", "--workers", "0"], "--workers", "must be at least 1"),
        (["arena", "random", "random", "--first", "-1"], "--first", "must be at least 0"),
        (["simulate", "--deals", "1.5"], "--deals", "must be a whole number"),
        # The benchmarks' flags (issue 28): each was a traceback, a hang or a run that meant
        # nothing.
        (["bench", "server", "--rounds", "0"], "--rounds", "must be at least 1"),
        (["bench", "server", "--tables", "0"], "--tables", "must be at least 1"),
        (["bench", "server", "--nodes", "0"], "--nodes", "must be at least 1"),
        (["bench", "server", "--client-procs", "0"], "--client-procs", "must be at least 1"),
        (["bench", "server", "--seconds", "0"], "--seconds", "seconds above zero"),
        (["bench", "server", "--seconds", "nan"], "--seconds", "finite number of seconds"),
        (["bench", "server", "--think-ms", "-5"], "--think-ms", "zero or more"),
        (["bench", "server", "--gc-sweep-ms", "-1"], "--gc-sweep-ms", "zero or more"),
        (["bench", "server", "--event-loop", "trio"], "--event-loop", "auto, asyncio, uvloop"),
        (["bench", "engine", "--deals", "0"], "--deals", "must be at least 1"),
        (["bench", "engine", "--runs", "0"], "--runs", "must be at least 1"),
        (["bench", "queue", "--arrive-seconds", "nan"], "--arrive-seconds", "finite number"),
        (["bench", "queue", "--rating-spread", "-5"], "--rating-spread", "zero or more"),
        (["bench", "review", "--tables", "0"], "--tables", "must be at least 1"),
        (["bench", "review", "--seconds", "nan"], "--seconds", "finite number of seconds"),
        (["bench", "review", "--think-ms", "-1"], "--think-ms", "zero or more"),
        (["bench", "review", "--reviewers", "0"], "--reviewers", "must be at least 1"),
        (["bench", "review", "--bot-workers", "0"], "--bot-workers", "must be at least 1"),
        (["bench", "review", "--rounds", "0"], "--rounds", "must be at least 1"),
        (["bench", "cluster", "--redis", "sentinel"], "--redis", "among single,cluster"),
        (["bench", "cluster", "--nodes", "0"], "--nodes", "1 or more each"),
        (["bench", "cluster", "--nodes", "a"], "--nodes", "whole numbers and commas"),
        (["bench", "cluster", "--seconds", "inf"], "--seconds", "finite number of seconds"),
        (["bench", "cluster", "--client-procs", "0"], "--client-procs", "must be at least 1"),
        (["bench", "cluster", "--event-loop", "trio"], "--event-loop", "auto, asyncio, uvloop"),
        (["bench", "table-path", "--tables", "0"], "--tables", "must be at least 1"),
        # ``tarot soak`` started its nodes and ran with each of these.
        (["soak", "--minutes", "-1"], "--minutes", "minutes above zero, not -1"),
        (["soak", "--seconds", "nan"], "--seconds", "finite number of seconds"),
        (["soak", "--tables", "0"], "--tables", "must be at least 1"),
        (["soak", "--deals", "0"], "--deals", "must be at least 1"),
        (["soak", "--fault-every", "0"], "--fault-every", "seconds above zero, not 0"),
        (["soak", "--think-ms", "-1"], "--think-ms", "zero or more"),
        (["soak", "--drain-seconds", "inf"], "--drain-seconds", "finite number of seconds"),
        (["reports", "--limit", "0"], "--limit", "must be at least 1"),
        # Numbers past 64 bits reached SQLite: an OverflowError's traceback (defect 7).
        (["reports", "--limit", "99999999999999999999"], "--limit", "must be at most"),
        (["duplicate", "close", "9223372036854775808"], "event_id", "must be at most"),
        (["duplicate", "close", "0"], "event_id", "must be at least 1"),
        # Values the server refuses: a Textual crash dump with exit status 0 (tarot play)
        # or a traceback (tarot bot) once connected (defect 11).
        (["play", "--deals", "5000"], "--deals", "must be at most 1000, not 5000"),
        (["play", "--name", "Eve\x1b[31m"], "--name", "a control character (U+001B)"),
        (["play", "--name", "x" * 41], "--name", "at most 40"),
        (["play", "--table", "../x"], "--table", "not a table id"),
        (["play", "--watch", "a b"], "--watch", "not a table id"),
        (["bot", "--table", "new", "--policy", "ai:random", "--deals", "5000"], "--deals", "1000"),
        (["bot", "--table", "../x", "--policy", "ai:random"], "--table", "not a table id"),
        (
            ["bot", "--table", "new", "--policy", "ai:random", "--name", "a\x00b"],
            "--name",
            "a control character (U+0000)",
        ),
        (
            ["bot", "--table", "abc", "--policy", "ai:random", "--invite", "x" * 65],
            "--invite",
            "an invite code has 1-64 characters, not 65",
        ),
    ],
)
def test_a_bad_value_is_a_usage_error_naming_its_flag(
    argv: list[str], flag: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert f"argument {flag}" in last and says in last, err
    assert "Traceback" not in err


def test_an_invite_code_s_bounds_come_from_join_whatever_else_it_constrains(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Join.invite may gain a least length (or another constraint) before its most: the
    # flag takes the one that says how long a code may be, and the least one too.
    field = m.Join.model_fields["invite"]
    monkeypatch.setattr(field, "metadata", [MinLen(4), *field.metadata])
    argv = ["bot", "--table", "abc", "--policy", "ai:random", "--invite"]
    for code, says in (("x" * 65, "4-64 characters, not 65"), ("xyz", "4-64 characters, not 3")):
        with pytest.raises(SystemExit) as exit_:
            main([*argv, code])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert says in err and "Traceback" not in err, err
    assert invite_code("abcd") == "abcd"


def test_a_bot_with_no_server_there_says_so_and_fails(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with socket.socket() as probe:  # a port nobody listens on any more
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = f"ws://127.0.0.1:{port}/"
    assert main(["bot", "--server", server, "--table", "new", "--policy", "ai:random"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"tarot bot: cannot reach {server}"), err


def test_arena_pool_names_the_file_that_is_not_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("strong won\n")
    assert main(["arena-pool", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tarot arena-pool: {path}: not JSON"), err


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--server", "ws://127.0.0.1:9/", "--queue", "casual", "--deals", "21"],
        [
            "bot",
            "--server",
            "ws://127.0.0.1:9/",
            "--table",
            "queue",
            "--policy",
            "ai:random",
            "--deals",
            "21",
        ],
    ],
)
def test_quick_play_with_more_deals_than_the_queue_allows_is_refused_before_connecting(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "at most 20 deals" in err and "Traceback" not in err, err


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--server", "ws://127.0.0.1:9/", "--queue", "rated"],
        ["bot", "--server", "ws://127.0.0.1:9/", "--table", "queue", "--mode", "rated"],
    ],
)
def test_rated_quick_play_without_an_account_is_refused_before_connecting(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Rated quick play is for accounts: without ``--account`` the server could only say
    ``rated_needs_account`` (and the commands had no way to sign in)."""
    args = argv + (["--policy", "ai:random"] if argv[0] == "bot" else [])
    assert main(args) == 2
    assert "rated quick play needs --account NAME" in capsys.readouterr().err


def test_an_account_s_password_comes_from_the_environment_never_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cli.argtypes import account_of

    monkeypatch.setenv("TAROT_PASSWORD", "correct horse battery")
    assert account_of("Zoe") == ("Zoe", "correct horse battery")
    assert account_of(None) is None
    monkeypatch.delenv("TAROT_PASSWORD")
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    with pytest.raises(ValueError, match="TAROT_PASSWORD"):
        account_of("Zoe")
