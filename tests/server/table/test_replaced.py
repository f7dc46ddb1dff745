"""``data.replaced``: the same model ``model_copy(update=...)`` makes, cheaper."""

from __future__ import annotations

from protocol import models as m
from server.table.data import DealData, TableData, replaced


def test_replaced_is_model_copy_field_for_field() -> None:
    deal = DealData(number=1, dealer=2, seed="00" * 16, actions=[{"seat": 0, "bid": "garde"}])
    data = TableData(table_id="t", options=m.TableOptions(), deal=deal)
    update = {"deal": replaced(deal, {"actions": []}), "turn_deadline_ms": 5}
    ours, theirs = replaced(data, update), data.model_copy(update=update)
    assert type(ours) is TableData
    assert ours == theirs
    assert ours.model_dump() == theirs.model_dump()
    assert ours.model_fields_set == theirs.model_fields_set
    assert ours.__pydantic_extra__ == theirs.__pydantic_extra__
    assert ours.__pydantic_private__ == theirs.__pydantic_private__
    assert data.turn_deadline_ms is None and data.deal is deal  # the original is untouched
    assert deal.actions == [{"seat": 0, "bid": "garde"}]
