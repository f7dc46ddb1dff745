"""Issue 19 point 4: one hierarchy of refusals in the server, a store failure translated once.

``TableRefused`` was both the table's refusal and the store's failure, and the
translation of a ``StoreError`` into an ``unavailable`` answer was written five
times (node, lobby, table). Now a store failure is a ``TableUnavailable``, made
by ``server.store.base.unavailable`` alone.
"""

from __future__ import annotations

import re
from pathlib import Path

from server.store.base import OutcomeUnknown, StaleVersion, StoreUnavailable, unavailable
from server.table.refusals import TableError, TableRefused, TableUnavailable

SERVER = Path(__file__).resolve().parents[3] / "server"


def test_a_store_failure_is_unavailable_and_not_a_refusal_of_the_table() -> None:
    answer = unavailable(StoreUnavailable("redis did not answer within 0.5s"))
    assert isinstance(answer, TableUnavailable) and isinstance(answer, TableError)
    assert not isinstance(answer, TableRefused)
    assert answer.code == "unavailable"
    assert "redis did not answer within 0.5s" in answer.message
    assert unavailable(StaleVersion("table x changed")).code == "unavailable"


def test_a_write_the_store_cannot_account_for_is_outcome_unknown() -> None:
    answer = unavailable(OutcomeUnknown("the reply was lost"))
    assert answer.code == "outcome_unknown"
    assert "did not say whether the change was kept" in answer.message


def test_store_failures_are_translated_in_one_place() -> None:
    translations = {
        path.relative_to(SERVER).as_posix()
        for path in SERVER.rglob("*.py")
        if re.search(r"TableRefused\(\s*\"(unavailable|outcome_unknown)\"", path.read_text())
        or "the table store failed" in path.read_text()
    }
    assert translations <= {"store/base.py"}, translations
