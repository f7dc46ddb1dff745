"""``tarot bot`` and the Node.js bot play whole tables against a real server, as processes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import sys
from pathlib import Path

import pytest

from cli.main import main
from clients.python import Bot, Client, play_table
from protocol import models as m
from server.app import App
from server.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
NODE_BOT = ROOT / "clients" / "node" / "bot.mjs"


async def run(*argv: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        *argv,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def tarot(*args: str) -> tuple[int, str, str]:
    return await run(sys.executable, "-m", "cli.main", *args)


def node() -> list[str]:
    """Node 22+ has WebSocket built in; Node 20 needs the flag."""
    binary = shutil.which("node")
    assert binary is not None, "the Node bot test needs node (Node.js 20+) on PATH"
    return [binary, "--experimental-websocket"]


async def test_tarot_bot_plays_the_example_bot_through_a_series(url: str) -> None:
    code, out, err = await tarot(
        "bot",
        "--server",
        url,
        "--table",
        "new",
        "--deals",
        "2",
        "--start",
        "--policy",
        "clients.python.example_bot:Greedy",
    )
    assert code == 0, err
    result = json.loads(out)
    assert result["seat"] == 0 and sum(result["totals"]) == 0
    assert err.count('"status":"played"') == 2  # one line per scored deal


async def test_tarot_bot_runs_an_ai_level_beside_a_library_player(url: str) -> None:
    """Two humans at one table: ``tarot bot --policy ai:expert`` (JSON) and a Bot here."""
    client = await Client.connect(url)
    created = await client.create_table(m.TableOptions(deals=1))
    table_id = created.table.table_id
    await client.join(table_id, seat=0)
    bot = asyncio.ensure_future(
        tarot(
            "bot",
            *("--server", url, "--table", table_id, "--seat", "2"),
            *("--policy", "ai:expert", "--json", "--name", "expert"),
        )
    )
    async for message in client:  # wait until the process sits at seat 2
        if isinstance(message, m.Event) and isinstance(message.event, m.SeatChanged):
            if message.event.seat.seat == 2 and message.event.seat.occupant == "human":
                break
    await client.start()
    totals = await play_table(client, Bot())
    code, out, err = await bot
    assert code == 0, err
    assert json.loads(out) == {"table": table_id, "seat": 2, "totals": totals}
    assert client.state is not None and client.state.table is not None
    assert client.state.table.seats[2].name == "expert"
    await client.close()


async def test_two_tarot_bots_of_one_level_sit_at_one_table_under_two_names(url: str) -> None:
    """Without ``--name`` a bot's name is its own (``ai:basic``), and a table shows a name
    once (``bad_name``, issue 27.11): the second takes ``ai:basic 2``. It used to be refused
    and exit 1, leaving the table short of a player (test_store_stalls waited for it)."""
    client = await Client.connect(url)
    table_id = (await client.create_table(m.TableOptions(deals=1))).table.table_id
    await client.join(table_id, seat=0)
    args = ("bot", "--server", url, "--table", table_id, "--policy", "ai:basic", "--seat")
    bots = [asyncio.ensure_future(tarot(*args, str(seat))) for seat in (1, 2)]

    async def both_seated() -> None:
        seated: set[int] = set()
        async for message in client:
            if isinstance(message, m.Event) and isinstance(message.event, m.SeatChanged):
                if message.event.seat.occupant == "human":
                    seated.add(message.event.seat.seat)
            if seated >= {1, 2}:
                return

    seating = asyncio.ensure_future(both_seated())
    await asyncio.wait([seating, *bots], timeout=30, return_when=asyncio.FIRST_COMPLETED)
    for b in bots:
        if b.done():  # it gave up instead of sitting
            code, _, err = b.result()
            raise AssertionError(f"tarot bot exited {code} before the table started: {err}")
    if not seating.done():
        seating.cancel()
        raise AssertionError("the two bots did not sit within 30 s")
    seating.result()
    await client.start()
    totals = await play_table(client, Bot())
    for b in bots:
        code, out, err = await b
        assert code == 0, err
        assert json.loads(out)["totals"] == totals
    assert client.state is not None and client.state.table is not None
    names = {client.state.table.seats[seat].name for seat in (1, 2)}
    assert names == {"ai:basic", "ai:basic 2"}
    await client.close()


async def test_the_node_bot_plays_a_series(url: str) -> None:
    code, out, err = await run(*node(), str(NODE_BOT), url, "new", "--start", "--deals", "2")
    assert code == 0, err
    result = json.loads(out)
    assert result["seat"] == 0 and sum(result["totals"]) == 0
    assert "seated at" in err


async def test_the_node_bot_names_the_message_a_refusal_answers(url: str) -> None:
    """Its messages carry ids: the refusal's ``re`` says it was the join (hello is #1)."""
    code, out, err = await run(*node(), str(NODE_BOT), url, "nosuchtable")
    assert (code, out) == (1, "")
    assert "refused (join #2): unknown_table" in err


async def test_the_node_bot_joins_an_existing_table_and_plays_with_a_library_bot(
    url: str,
) -> None:
    client = await Client.connect(url, "json")
    created = await client.create_table(m.TableOptions(deals=1))
    table_id = created.table.table_id
    await client.join(table_id, seat=1)
    bot = asyncio.ensure_future(run(*node(), str(NODE_BOT), url, table_id, "--seat", "3"))
    async for message in client:
        if isinstance(message, m.Event) and isinstance(message.event, m.SeatChanged):
            if message.event.seat.seat == 3 and message.event.seat.occupant == "human":
                break
    await client.start()
    totals = await play_table(client, Bot())
    code, out, err = await bot
    assert code == 0, err
    assert json.loads(out) == {"seat": 3, "totals": totals}
    await client.close()


async def test_tarot_bot_says_why_it_cannot_play(url: str) -> None:
    code, out, err = await tarot("bot", "--server", url, "--table", "Nope", "--policy", "ai:basic")
    assert (code, out) == (1, "")
    assert err.strip() == "tarot bot: unknown_table: no table 'Nope'"


@pytest.mark.parametrize(
    ("policy", "reason"),
    [
        ("ai:genius", "unknown bot level 'genius'"),
        ("no.such.module:Bot", "cannot import 'no.such.module'"),
        ("clients.python.example_bot:strength", "is not a subclass of clients.python.Bot"),
        ("Greedy", "is not module:Class or ai:LEVEL"),
    ],
)
def test_a_bad_policy_is_refused_before_connecting(
    policy: str, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bot", "--table", "T", "--policy", policy]) == 2
    assert reason in capsys.readouterr().err


async def test_the_node_bot_resumes_its_seat_when_the_connection_drops() -> None:
    # AI moves paced, so that the deal is still on when the server drops everyone.
    app = await App.start(Settings(port=0, ai_pause_seconds=0.05, lease_ms=600))
    url = f"ws://127.0.0.1:{app.port}/"
    client = await Client.connect(url, "json")
    try:
        created = await client.create_table(m.TableOptions(deals=1))
        table_id = created.table.table_id
        await client.join(table_id, seat=1)
        bot = asyncio.ensure_future(run(*node(), str(NODE_BOT), url, table_id, "--seat", "3"))
        async for message in client:
            if isinstance(message, m.Event) and isinstance(message.event, m.SeatChanged):
                if message.event.seat.seat == 3 and message.event.seat.occupant == "human":
                    break
        await client.start()

        async def drop_twice() -> None:
            for _ in range(2):
                await asyncio.sleep(0.5)
                for connection in list(app.connections):
                    await connection.ws.close(1011, "dropped by the test")

        dropping = asyncio.ensure_future(drop_twice())
        totals = await play_table(client, Bot())
        await dropping
        code, out, err = await bot
        assert code == 0, err
        assert json.loads(out) == {"seat": 3, "totals": totals}
        assert err.count("resuming seat 3") >= 2
    finally:
        await client.close()
        await app.stop(drain_seconds=0)


class Outage:
    """A TCP relay in front of a node that can go down (its port refusing connections)
    for a while, as a balancer with no node behind it does."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = 0
        self.server: asyncio.Server | None = None
        self.relayed: list[asyncio.StreamWriter] = []

    async def up(self) -> None:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def down(self, seconds: float) -> None:
        await self.close()
        await asyncio.sleep(seconds)
        await self.up()

    async def close(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in self.relayed:
            writer.close()
        await asyncio.gather(*(w.wait_closed() for w in self.relayed), return_exceptions=True)
        self.relayed.clear()
        await self.server.wait_closed()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        node_reader, node_writer = await asyncio.open_connection("127.0.0.1", self.target)
        self.relayed += [writer, node_writer]

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except OSError:
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, node_writer), pipe(node_reader, writer))


async def test_the_node_bot_keeps_reconnecting_through_an_outage_longer_than_ten_seconds(
    app: App, url: str
) -> None:
    """Issue 29.4: it gave up after 8 tries (about 9 s), less than a node's adoption of a
    crashed node's tables plus the balancer's checks. Here the address refuses every
    connection for 12 s, then the bot resumes and plays the table to its end."""
    relay = Outage(app.port)
    await relay.up()
    client = await Client.connect(url, "json")
    try:
        created = await client.create_table(m.TableOptions(deals=1))
        table_id = created.table.table_id
        await client.join(table_id, seat=1)
        bot_url = f"ws://127.0.0.1:{relay.port}/"
        bot = asyncio.ensure_future(run(*node(), str(NODE_BOT), bot_url, table_id, "--seat", "3"))
        async for message in client:
            if isinstance(message, m.Event) and isinstance(message.event, m.SeatChanged):
                if message.event.seat.seat == 3 and message.event.seat.occupant == "human":
                    break
        await client.start()
        outage = asyncio.ensure_future(relay.down(12))
        totals = await play_table(client, Bot())
        await outage
        code, out, err = await bot
        assert code == 0 and out, (code, out, err)
        assert json.loads(out) == {"seat": 3, "totals": totals}
        assert err.count("resuming seat 3") > 8  # more tries than it used to make in all
    finally:
        await client.close()
        await relay.close()


class CutAfterRecord:
    """A TCP relay to a node that, once the first deal's ``record`` has gone to the client,
    swallows what the client sends and then cuts the client's side only: the bot's
    ``next_deal`` is lost, and the node, as when the node it went through was killed, is
    not told (the seat is not marked away). Later connections are relayed whole."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.cut = False
        self.swallowed = 0  # bytes the client sent that never reached the node
        self.server: asyncio.Server | None = None
        self.left_open: list[asyncio.StreamWriter] = []

    async def up(self) -> int:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in self.left_open:
            writer.close()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        node_reader, node_writer = await asyncio.open_connection("127.0.0.1", self.target)
        cutting = asyncio.Event()

        async def to_node() -> None:
            while data := await reader.read(65536):
                if cutting.is_set():
                    self.swallowed += len(data)
                    continue
                node_writer.write(data)
                await node_writer.drain()

        async def to_client() -> None:
            while data := await node_reader.read(65536):
                writer.write(data)
                await writer.drain()
                if not self.cut and b'"record"' in data:  # server frames are not masked
                    self.cut = True
                    cutting.set()
                    await asyncio.sleep(0.5)  # the bot's answer arrives, and is swallowed
                    break

        with contextlib.suppress(OSError):
            await next(iter(asyncio.as_completed([to_node(), to_client()])))
        writer.close()
        if cutting.is_set():
            self.left_open.append(node_writer)  # the node still sees the seat connected
        else:
            node_writer.close()


async def test_the_node_bot_says_next_deal_again_when_it_was_lost_with_the_connection(
    app: App,
) -> None:
    """Found with the Python library's (tests/clients/test_reconnect.py): the bot forgot a
    ``next_deal`` sent on a connection that dropped, and the table waited its whole 30 s of
    next_deal_seconds for it."""
    relay = CutAfterRecord(app.port)
    bot_url = f"ws://127.0.0.1:{await relay.up()}/"
    try:
        async with asyncio.timeout(25):  # the table would wait 30 s for the lost next_deal
            code, out, err = await run(
                *node(), str(NODE_BOT), bot_url, "new", "--start", "--deals", "2"
            )
        assert code == 0, err
        assert relay.cut and relay.swallowed > 0, err
        assert "resuming seat" in err and len(json.loads(out)["totals"]) == 4
    finally:
        await relay.close()


async def test_the_node_bot_finds_its_table_by_quick_play_beside_a_library_bot() -> None:
    """``bot.mjs URL queue``: it queues (casual), confirms the ready check and plays the
    seat quick play gives it, as ``tarot bot --table queue`` does."""
    from server.queue.settings import QueueSettings

    fast = QueueSettings(fill_three_seconds=1, fill_two_seconds=1, ready_seconds=5)
    app = await App.start(Settings(port=0, lease_ms=600, queue=fast))
    url = f"ws://127.0.0.1:{app.port}/"
    try:
        bot = asyncio.ensure_future(run(*node(), str(NODE_BOT), url, "queue"))
        async with await Client.connect(url, "json") as client:
            state = await asyncio.wait_for(client.queue(name="Lib"), 60)
            totals = await play_table(client, Bot())
        code, out, err = await asyncio.wait_for(bot, 60)
        assert code == 0, err
        assert json.loads(out)["totals"] == totals
        assert f"seated by quick play at {state.table_id}" in err
    finally:
        await app.stop(drain_seconds=0)
