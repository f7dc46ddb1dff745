"""The connection's protocol state (server/net/connection_state.py) as pure functions.

Every phase x transition is allowed or refused with its typed error (the codes
the wire answers with); every phase x message type is taken or refused; random
sequences of transitions keep the invariants (table and seat only where the
phase has them, CLOSED for good, a refusal changes nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol import models as m
from protocol.errors import HelloRequired
from server.net import connection_state as cs
from server.table.refusals import TableRefused

P = cs.ConnectionPhase


@dataclass(frozen=True)
class FakeTable:
    table_id: str


T1, T2 = FakeTable("t1"), FakeTable("t2")
State = cs.ConnectionState[FakeTable]
STATES: dict[P, State] = {
    P.NEW: cs.ConnectionState(),
    P.LOBBY: cs.ConnectionState(P.LOBBY),
    P.SEATED: cs.ConnectionState(P.SEATED, T1, 2, 3),
    P.WATCHING: cs.ConnectionState(P.WATCHING, T1),
    P.CLOSED: cs.ConnectionState(P.CLOSED),
}
Transition = Callable[[State], State]
TRANSITIONS: dict[str, Transition] = {
    "hello": cs.on_hello,
    "sit": lambda s: cs.on_sit(s, T2, 1, 5),
    "watch": lambda s: cs.on_watch(s, T2),
    "leave": cs.on_leave,
    "drop": cs.on_drop,
    "close": cs.on_close,
}
SEATED_T2 = cs.ConnectionState(P.SEATED, T2, 1, 5)
WATCHING_T2 = cs.ConnectionState(P.WATCHING, T2)
LOBBY = STATES[P.LOBBY]
CLOSED = STATES[P.CLOSED]
# What each transition does from each phase: the next state, or (error type, code).
Outcome = State | tuple[type[Exception], str]
HELLO_FIRST = (HelloRequired, "hello_required")
IS_CLOSED = (cs.ConnectionClosedError, "closed")
SEATED_ALREADY = (TableRefused, "already_seated")
NOT_SEATED = (TableRefused, "not_seated")
EXPECTED: dict[tuple[P, str], Outcome] = {
    (P.NEW, "hello"): LOBBY,
    (P.NEW, "sit"): HELLO_FIRST,
    (P.NEW, "watch"): HELLO_FIRST,
    (P.NEW, "leave"): HELLO_FIRST,
    (P.NEW, "drop"): HELLO_FIRST,
    (P.NEW, "close"): CLOSED,
    (P.LOBBY, "hello"): LOBBY,
    (P.LOBBY, "sit"): SEATED_T2,
    (P.LOBBY, "watch"): WATCHING_T2,
    (P.LOBBY, "leave"): NOT_SEATED,
    (P.LOBBY, "drop"): LOBBY,
    (P.LOBBY, "close"): CLOSED,
    (P.SEATED, "hello"): STATES[P.SEATED],
    (P.SEATED, "sit"): SEATED_ALREADY,
    (P.SEATED, "watch"): SEATED_ALREADY,
    (P.SEATED, "leave"): LOBBY,
    (P.SEATED, "drop"): LOBBY,
    (P.SEATED, "close"): CLOSED,
    (P.WATCHING, "hello"): STATES[P.WATCHING],
    (P.WATCHING, "sit"): SEATED_T2,
    (P.WATCHING, "watch"): SEATED_ALREADY,
    (P.WATCHING, "leave"): LOBBY,
    (P.WATCHING, "drop"): LOBBY,
    (P.WATCHING, "close"): CLOSED,
    **{(P.CLOSED, name): IS_CLOSED for name in TRANSITIONS if name != "drop"},
    # A table's news after the close changes nothing, and never raises into the table.
    (P.CLOSED, "drop"): CLOSED,
}


@pytest.mark.parametrize(("phase", "name"), sorted(EXPECTED, key=str))
def test_every_phase_and_transition(phase: P, name: str) -> None:
    expected = EXPECTED[(phase, name)]
    if isinstance(expected, tuple):
        error, code = expected
        with pytest.raises(error) as raised:
            TRANSITIONS[name](STATES[phase])
        assert raised.value.code == code  # type: ignore[attr-defined]
    else:
        assert TRANSITIONS[name](STATES[phase]) == expected


def test_the_table_covers_every_phase_and_transition() -> None:
    assert set(EXPECTED) == {(p, n) for p in P for n in TRANSITIONS}


SEATED_ONLY = {"start", "act", "next_deal", "rematch"}
FOLLOWING_ONLY = {"leave", "chat", "report"}  # a seat or a watch
LOBBY_ONLY = {"join", "watch", "queue", "ready", "play_now", "duplicate_play"}  # 16, 18
# Every client message type on the wire, read from the models' union.
TYPES = sorted(c.model_fields["type"].default for c in get_args(get_args(m.ClientMessage)[0]))


def _accepts(phase: P, kind: str) -> str | None:
    """The code a phase refuses ``kind`` with (None: taken), as the wire answers."""
    if phase is P.CLOSED:
        return "closed"
    if kind == "hello":
        return None
    if phase is P.NEW:
        return "hello_required"
    refused = (
        (kind in SEATED_ONLY and phase is not P.SEATED)
        or (kind in LOBBY_ONLY and phase is not P.LOBBY)
        or (kind == "resume" and phase is P.SEATED)
        or (kind in FOLLOWING_ONLY and phase is P.LOBBY)
    )
    if not refused:
        return None
    return "not_seated" if kind in SEATED_ONLY | FOLLOWING_ONLY else "already_seated"


@pytest.mark.parametrize("phase", list(P))
def test_which_message_types_each_phase_takes(phase: P) -> None:
    for kind in TYPES:
        expected = _accepts(phase, kind)
        if expected is None:
            cs.check_accepts(STATES[phase], kind)
        else:
            with pytest.raises((TableRefused, HelloRequired, cs.ConnectionClosedError)) as e:
                cs.check_accepts(STATES[phase], kind)
            assert e.value.code == expected, kind  # type: ignore[attr-defined]


def test_refusals_keep_the_wire_messages() -> None:
    with pytest.raises(TableRefused, match="already follows table t1"):
        cs.check_accepts(STATES[P.WATCHING], "join")
    with pytest.raises(TableRefused, match="already holds a seat"):
        cs.check_accepts(STATES[P.SEATED], "resume")
    with pytest.raises(TableRefused, match="follows no table"):
        cs.check_accepts(LOBBY, "leave")
    with pytest.raises(TableRefused, match="holds no seat"):
        cs.check_accepts(STATES[P.WATCHING], "act")
    with pytest.raises(HelloRequired, match="say hello first"):
        cs.check_accepts(STATES[P.NEW], "ping")


@pytest.mark.parametrize(
    ("phase", "table", "seat", "session"),
    [
        (P.LOBBY, T1, None, 0),
        (P.SEATED, T1, None, 0),
        (P.WATCHING, T1, 2, 0),
        (P.LOBBY, None, None, 4),
    ],
)
def test_a_state_with_facts_its_phase_has_not_is_refused(
    phase: P, table: FakeTable | None, seat: int | None, session: int
) -> None:
    with pytest.raises(ValueError):
        cs.ConnectionState(phase, table, seat, session)


def _check_invariants(state: State) -> None:
    follows = state.phase in (P.SEATED, P.WATCHING)
    assert (state.table is not None) == follows
    assert (state.seat is not None) == (state.phase is P.SEATED)


@given(st.lists(st.sampled_from(sorted(TRANSITIONS)), max_size=30))
def test_random_transitions_keep_the_invariants(names: list[str]) -> None:
    state: State = STATES[P.NEW]
    closed = False
    for name in names:
        before = state
        try:
            state = TRANSITIONS[name](state)
        except (TableRefused, HelloRequired, cs.ConnectionClosedError):
            assert state == before  # a refusal changes nothing (the values are frozen)
            assert isinstance(EXPECTED[(before.phase, name)], tuple)
        else:
            kept = name == "hello" and before.phase is not P.NEW  # greeting again
            assert state == (before if kept else EXPECTED[(before.phase, name)])
        _check_invariants(state)
        closed = closed or name == "close"
        assert (state.phase is P.CLOSED) == closed  # CLOSED only by a close, and for good
        for kind in TYPES:  # check_accepts never raises another error
            try:
                cs.check_accepts(state, kind)
            except (TableRefused, HelloRequired, cs.ConnectionClosedError):
                pass
