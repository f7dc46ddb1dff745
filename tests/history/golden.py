"""The project's golden records (tests/records) as finished deals to store."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from server.history import FinishedDeal, Occupant

RECORDS = Path(__file__).resolve().parent.parent / "records"
NAMES = sorted(p.name.removesuffix(".sheet.json") for p in RECORDS.glob("*.sheet.json"))
START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
SEATS = (
    Occupant(guest_name="Anna"),
    Occupant(ai_level="expert"),
    Occupant(ai_level="basic"),
    Occupant(guest_name="Bob"),
)


def record(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((RECORDS / f"{name}.json").read_text())
    return loaded


def sheet(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((RECORDS / f"{name}.sheet.json").read_text())
    return loaded


def finished_deals(table_id: str = "t-golden") -> list[FinishedDeal]:
    """Every golden record as one deal of one table, a minute apart."""
    from server.history import sheet_of

    return [
        FinishedDeal(
            table_id=table_id,
            deal_number=number,
            record=record(name),
            sheet=sheet_of(record(name)),
            started_at=START + timedelta(minutes=number),
            finished_at=START + timedelta(minutes=number, seconds=50),
            seats=SEATS,
        )
        for number, name in enumerate(NAMES)
    ]
