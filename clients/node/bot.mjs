// A tarot bot in plain Node.js (no npm packages), speaking tarot.v1 over JSON.
//
//   node --experimental-websocket clients/node/bot.mjs ws://127.0.0.1:8765/ new --start
//   node --experimental-websocket clients/node/bot.mjs ws://127.0.0.1:8765/ TABLE_ID --seat 2
//
// Node 22+ has WebSocket built in; Node 20 needs --experimental-websocket.
// It joins (or creates) a table, answers every your_turn with a simple legal
// choice, says next_deal after each scored deal, and prints the totals as one
// JSON line when the table is over. See docs/CLIENTS.md for the walk-through.

const [url = "ws://127.0.0.1:8765/", table = "new", ...flags] = process.argv.slice(2);
const seatFlag = flags.indexOf("--seat");
const seat = seatFlag >= 0 ? Number(flags[seatFlag + 1]) : null;
const start = flags.includes("--start");
const deals = flags.includes("--deals") ? Number(flags[flags.indexOf("--deals") + 1]) : 1;

const ws = new WebSocket(url, "tarot.v1.json");
const send = (message) => ws.send(JSON.stringify(message));
let mySeat = null;
let lastStatus = null;
let hand = []; // the dealt hand: all this bot looks at to bid

// The decisions: any answer among the legal choices is legal.
function decide(legal, hand) {
  if (legal.bids.length > 0) {
    const trumps = hand.filter((card) => card.startsWith("T")).length;
    return { kind: "bid", contract: trumps >= 9 && legal.bids.includes("prise") ? "prise" : "pass" };
  }
  if (legal.discard) {
    const { count, allowed, required } = legal.discard;
    const rest = allowed.filter((card) => !required.includes(card));
    return { kind: "discard", cards: [...required, ...rest.slice(0, count - required.length)] };
  }
  if (legal.chelem) return { kind: "chelem", announce: false };
  return { kind: "play", card: legal.cards[0] }; // the lowest playable card
}

function onMessage(message) {
  switch (message.type) {
    case "welcome":
      if (table === "new") send({ type: "create_table", options: { deals } });
      else send({ type: "join", table_id: table, seat, name: "node-bot" });
      break;
    case "table_created":
      send({ type: "join", table_id: message.table.table_id, seat, name: "node-bot" });
      break;
    case "joined":
      mySeat = message.seat;
      console.error(`seated at ${message.table_id}, seat ${mySeat}`);
      break;
    case "snapshot":
      hand = message.view ? message.view.hand : [];
      if (start && message.table.status === "waiting") send({ type: "start" });
      break;
    case "your_turn":
      send({ type: "act", action: decide(message.legal, hand) });
      break;
    case "event":
      onEvent(message.event);
      break;
    case "error":
      if (message.code === "not_started") break; // next_deal after the last deal: harmless
      console.error(`refused: ${message.code}: ${message.message}`);
      process.exit(1);
      break;
    case "bye":
      console.error(`bye: ${message.reason}`);
      process.exit(1);
  }
}

function onEvent(event) {
  switch (event.kind) {
    case "hand":
      if (event.seat === mySeat) hand = event.cards; // others' hands come as "hidden"
      break;
    case "score":
      lastStatus = event.sheet.status;
      console.error(`deal ${event.deal_number}: ${JSON.stringify(event.sheet.scores)}`);
      break;
    case "record":
      if (lastStatus === "played") send({ type: "next_deal" }); // cancelled deals re-deal alone
      break;
    case "table_over":
      console.log(JSON.stringify({ seat: mySeat, totals: event.totals }));
      ws.close();
      process.exit(0);
  }
}

ws.addEventListener("open", () => send({ type: "hello", protocol: 1, client: "node-bot" }));
ws.addEventListener("message", (e) => onMessage(JSON.parse(e.data)));
ws.addEventListener("error", (e) => {
  console.error(`connection error: ${e.message ?? e.type}`);
  process.exit(1);
});
