"""The page's requests carry ids (PROTOCOL.md section 4): each answer, and each error,
is matched to the request that caused it, whatever else is waiting."""

from __future__ import annotations

import json
from typing import Any

from .conftest import NewPlayer

AN_ACTION_REFUSED_WHILE_A_REQUEST_WAITS = """async () => {
    const net = window.cardavia.app.net;
    // An action (sent without an id) that the server refuses: nobody is seated here.
    net.send({type: 'act', action: {kind: 'bid', contract: 'pass'}});
    const listed = await net.request({type: 'list_tables'}, ['tables']).then(
        (m) => m.type, (e) => `rejected: ${e.code}`);
    const watched = await net.request({type: 'watch', table_id: 'nosuchtable'}, ['watching']).then(
        (m) => m.type, (e) => `rejected: ${e.code}`);
    return [listed, watched];
}"""


async def test_an_error_goes_to_the_request_it_answers_and_no_other(
    new_player: NewPlayer,
) -> None:
    player = await new_player()
    await player.open()
    # The action's refusal (no id) is the page's to show, not the waiting list's answer;
    # the refused watch (its id) rejects the watch.
    assert await player.page.evaluate(AN_ACTION_REFUSED_WHILE_A_REQUEST_WAITS) == [
        "tables",
        "rejected: unknown_table",
    ]
    # The action's refusal, shown to the player (read even if it has faded out since).
    assert await player.page.locator("#toast").text_content() == "You are not seated at a table."
    assert player.errors == []


async def test_every_request_of_a_quick_game_has_an_id_echoed_by_its_answer(
    new_player: NewPlayer,
) -> None:
    player = await new_player()
    sent: list[dict[str, Any]] = []
    player.page.on("websocket", lambda ws: ws.on("framesent", lambda m: sent.append(json.loads(m))))
    await player.open()
    await player.page.click("[data-action=quick-start]")
    await player.page.wait_for_selector("#hand .card")
    requests = {m["type"]: m for m in sent if m["type"] in ("create_table", "join")}
    assert set(requests) == {"create_table", "join"}
    ids = [m["id"] for m in requests.values()]
    assert len(set(ids)) == 2 and all(isinstance(i, int) for i in ids)
    answers = {f["type"]: f for f in player.frames if f.get("type") in ("table_created", "joined")}
    assert answers["table_created"]["re"] == requests["create_table"]["id"]
    assert answers["joined"]["re"] == requests["join"]["id"]
