"""The Python client library against a real server: state, bots, both codecs, errors."""

from __future__ import annotations

import dataclasses
import socket

import pytest

import engine
from cli.engine_bot import EngineBot
from clients.python import (
    BadURL,
    Bot,
    Client,
    ClientError,
    Disconnected,
    Refused,
    TableState,
    Unreachable,
    engine_view,
    play_table,
)
from clients.python.example_bot import Greedy
from protocol import models as m
from protocol.convert import view_model
from server.app import App


def server_view(app: App, state: TableState) -> m.SeatView:
    """What the server itself would send this seat in a snapshot now."""
    runtime = app.node.runtimes[state.table_id]
    assert runtime.state is not None and runtime.data.deal is not None
    return view_model(engine.view(runtime.state, state.seat), runtime.data.deal.number)


def assert_same_as_server(app: App, state: TableState) -> None:
    assert state.view == server_view(app, state)
    assert state.table == app.node.runtimes[state.table_id].summary()
    runtime = app.node.runtimes[state.table_id]
    assert runtime.state is not None and state.view is not None
    mine = engine_view(state.view, state.legal)
    truth = engine.view(runtime.state, state.seat)
    for name in (f.name for f in dataclasses.fields(truth)):
        if name != "sheet":
            assert getattr(mine, name) == getattr(truth, name), name


@pytest.mark.parametrize("codec", ["msgpack", "json"])
async def test_the_seat_view_follows_the_server_at_every_turn_and_deal_end(
    app: App, url: str, codec: str
) -> None:
    """Random AI everywhere: takers, discards, chelems and poignees all come up."""
    client = await Client.connect(url, codec)  # type: ignore[arg-type]
    created = await client.create_table(m.TableOptions(deals=3, ai_level="random"))
    state = await client.join(created.table.table_id, seat=1)
    await client.start()
    bot, checked = EngineBot("random", seed=codec), 0

    def check(message: m.Model) -> None:
        nonlocal checked
        deal_end = isinstance(message, m.Event) and isinstance(message.event, m.RecordEvent)
        if (message is state.turn or deal_end) and state.seq == app.node.runtimes[
            state.table_id
        ].data.seq:
            assert_same_as_server(app, state)
            checked += 1

    totals = await play_table(client, bot, on_message=check)
    assert sum(totals) == 0 and state.over and state.missed == 0
    assert checked >= 3 * 6
    assert len(state.records) == len(state.sheets) >= 3
    assert [s.status for s in state.sheets].count("played") == 3
    await client.close()


async def test_a_twenty_line_custom_bot_plays_a_series_against_ai(url: str) -> None:
    async with await Client.connect(url) as client:
        created = await client.create_table(m.TableOptions(deals=2))
        await client.join(created.table.table_id, name="greedy")
        await client.start()
        totals = await play_table(client, Greedy())
        assert len(totals) == 4 and sum(totals) == 0
        assert client.state is not None and client.state.seat == 0


async def test_four_library_bots_fill_a_table_and_wait_for_each_other(url: str) -> None:
    """Four human seats: each deal starts once all four said next_deal."""
    import asyncio

    bots: list[Bot] = [Greedy(), Bot(), EngineBot("basic"), EngineBot("expert", seed=4)]
    clients = [await Client.connect(url, "json" if i % 2 else "msgpack") for i in range(4)]
    created = await clients[0].create_table(m.TableOptions(deals=2))
    table_id = created.table.table_id
    for seat, client in enumerate(clients):
        await client.join(table_id, seat=seat, name=bots[seat].name)  # the 4th join starts it
    results = await asyncio.gather(*(play_table(c, b) for c, b in zip(clients, bots, strict=True)))
    assert all(r == results[0] for r in results) and sum(results[0]) == 0
    for client in clients:
        assert client.state is not None and client.state.table is not None
        assert [s.occupant for s in client.state.table.seats] == ["human"] * 4
        await client.close()


async def test_lobby_calls_list_create_watch_and_leave(url: str) -> None:
    async with await Client.connect(url, "json") as player, await Client.connect(url) as watcher:
        created = await player.create_table(m.TableOptions(name="lobby test", deals=1))
        table_id = created.table.table_id
        assert table_id in [t.table_id for t in await watcher.list_tables()]
        seen = await watcher.watch(table_id)
        assert seen.seat is None and seen.table is not None and seen.table.status == "waiting"
        await player.join(table_id, seat=2, name="Ann")
        await player.start()
        totals = await play_table(player, EngineBot("basic"))
        async for message in watcher:  # the spectator saw the same table, without hands
            if isinstance(message, m.Event) and isinstance(message.event, m.TableOverEvent):
                break
        assert watcher.state is not None and watcher.state.view is not None
        assert watcher.state.totals == totals and watcher.state.view.hand == []
        assert watcher.state.view.hand_sizes == [0, 0, 0, 0]
        assert watcher.state.table is not None and watcher.state.table.seats[2].name == "Ann"
        await watcher.leave()
        assert watcher.state is None


async def test_refusals_raise_server_error_with_code_message_rule_and_reason(url: str) -> None:
    client = await Client.connect(url)
    with pytest.raises(Refused) as refused:
        await client.join("NoSuchTable")
    assert refused.value.code == "unknown_table" and "NoSuchTable" in refused.value.message
    with pytest.raises(Refused) as refused:
        await client.start()
    assert refused.value.code == "not_seated"

    created = await client.create_table(m.TableOptions(deals=1))
    state = await client.join(created.table.table_id)
    await client.start()
    with pytest.raises(Refused) as refused:
        await client.start()
    assert refused.value.code == "already_started"

    bot, errors = EngineBot("basic"), set()
    async for message in client:
        if message is not state.turn or state.legal is None or state.view is None:
            continue
        legal = state.legal
        if legal.bids:
            with pytest.raises(Refused) as refused:
                await client.play(state.view.hand[0])
            assert (refused.value.code, refused.value.reason) == ("illegal_action", "wrong_phase")
            errors.add("wrong_phase")
        unplayable = [c for c in state.view.hand if legal.cards and c not in legal.cards]
        if unplayable:
            with pytest.raises(Refused) as refused:
                await client.play(unplayable[0])
            assert refused.value.code == "illegal_action" and refused.value.rule == "R11"
            assert refused.value.reason in ("must_follow_suit", "must_trump", "must_overtrump")
            assert unplayable[0] in refused.value.message
            errors.add("R11")
        await client.act(bot.decide(state.view, legal))
        if errors == {"wrong_phase", "R11"}:
            break
    assert errors == {"wrong_phase", "R11"}
    await client.close()


async def test_a_resumed_seat_ends_the_other_connection_with_disconnected(url: str) -> None:
    first = await Client.connect(url)
    created = await first.create_table(m.TableOptions(deals=1))
    state = await first.join(created.table.table_id)
    assert state.token is not None
    second = await Client.connect(url, "json")
    resumed = await second.resume(state.token)
    assert resumed.seat == state.seat and resumed.table_id == state.table_id
    with pytest.raises(Disconnected) as gone:
        async for _ in first:
            pass
    assert gone.value.reason == "replaced"
    with pytest.raises(Disconnected):
        await first.ping()
    await first.close()
    await second.close()


async def test_a_bad_token_is_refused(url: str) -> None:
    async with await Client.connect(url) as client:
        with pytest.raises(Refused) as refused:
            await client.resume("nosuchtable.token")
        assert refused.value.code == "bad_token"


@pytest.mark.parametrize(
    "address",
    ["http://127.0.0.1:8765/", "127.0.0.1:8765", "ws://", "", "ws://h:99999/", "ws://[::1/"],
)
async def test_a_url_that_is_not_a_websocket_one_is_a_bad_url(address: str) -> None:
    with pytest.raises(BadURL, match="not a ws:// or wss:// URL"):
        await Client.connect(address)


async def test_no_server_at_the_address_is_unreachable() -> None:
    with socket.socket() as probe:  # a port that was free a moment ago: nobody listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(Unreachable, match=f"cannot reach ws://127.0.0.1:{port}/") as caught:
        await Client.connect(f"ws://127.0.0.1:{port}/")
    assert isinstance(caught.value, ClientError) and not isinstance(caught.value, BadURL)
    assert issubclass(BadURL, ClientError) and not issubclass(BadURL, Unreachable)


async def test_a_bot_rides_over_a_tight_rate_limit() -> None:
    """Refused as rate_limited means nothing changed: the library sends it again.

    The burst covers the five messages before play (hello, create, join, start,
    ping); then the bot acts faster than 8 messages a second.
    """
    from server.settings import Settings

    app = await App.start(Settings(port=0, rate_per_second=8, rate_burst=5))
    try:
        async with await Client.connect(f"ws://127.0.0.1:{app.port}/") as client:
            created = await client.create_table(m.TableOptions(deals=1))
            await client.join(created.table.table_id)
            await client.start()
            totals = await play_table(client, Bot())
            assert sum(totals) == 0
        registry = app.node.metrics.registry
        refused = registry.get_sample_value("tarot_refused_total", {"code": "rate_limited"})
        assert refused is not None and refused > 0  # the limit did bite
    finally:
        await app.stop(drain_seconds=0)


async def test_list_tables_follows_the_lobby_pages_and_passes_its_filters(url: str) -> None:
    """The lobby answers a page at a time: list_tables reads every page; filters go through."""
    async with await Client.connect(url) as lobby:
        made = [
            (await lobby.create_table(m.TableOptions(deals=1, ai_level=level))).table.table_id
            for level in ("basic", "expert", "basic")
        ]
        first = await lobby.tables_page(limit=2)
        assert len(first.tables) == 2 and first.next is not None  # a second page is there
        listed = [t.table_id for t in await lobby.list_tables(page=2)]
        assert set(made) <= set(listed) and len(listed) == len(set(listed))
        basic = {t.table_id for t in await lobby.list_tables(ai_level="basic", page=1)}
        assert {made[0], made[2]} <= basic and made[1] not in basic
        assert set(made) <= {t.table_id for t in await lobby.list_tables(open_seats=True)}


async def next_turn(client: Client) -> m.YourTurn:
    """The next ``your_turn`` that is still current."""
    async for message in client:
        if isinstance(message, m.YourTurn) and client.state is not None:
            if message is client.state.turn:
                return message
    raise AssertionError("the stream ended")


async def test_resync_resumes_the_seat_and_the_server_asks_for_the_turn_again(url: str) -> None:
    """After ``outcome_unknown`` a bot resyncs: the same seat, nothing missed, its turn again."""
    async with await Client.connect(url) as client:
        created = await client.create_table(m.TableOptions(deals=1, ai_level="random"))
        await client.join(created.table.table_id, seat=0)
        await client.start()
        state = client.state
        assert state is not None
        asked = await next_turn(client)
        await client.resync()
        again = await next_turn(client)
        assert client.reconnections == 1 and client.state is state  # the seat, resumed
        assert again is not asked and again.legal == asked.legal  # the same decision, again
        assert state.missed == 0 and not state.behind  # no event lost on the way
        card = again.legal.cards[0] if again.legal.cards else None
        await client.act(m.PlayAction(card=card) if card else m.BidAction(contract="pass"))
