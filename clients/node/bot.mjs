// A tarot bot in plain Node.js (no npm packages), speaking tarot.v2 over JSON.
//
//   node --experimental-websocket clients/node/bot.mjs ws://127.0.0.1:8765/ new --start
//   node --experimental-websocket clients/node/bot.mjs ws://127.0.0.1:8765/ TABLE_ID --seat 2
//   node --experimental-websocket clients/node/bot.mjs ws://127.0.0.1:8765/ queue --deals 3
//
// Node 22+ has WebSocket built in; Node 20 needs --experimental-websocket.
// It joins (or creates) a table, or finds one by quick play ("queue": casual, the ready
// check confirmed; PROTOCOL.md, section 16), answers every your_turn with a simple legal
// choice, says next_deal after each scored deal, and prints the totals as one
// JSON line when the table is over. Version 2 sends a commit's events in one
// "events" frame, with this seat's your_turn folded in (and in a snapshot) and
// the "re" of the request that made it. When the connection drops (or the server
// says bye: shutdown, and it closes the connection itself), it reconnects with
// a jittered pause doubling from 0.1 s to 2 s, for a minute at least (a node
// that crashed is taken over within seconds), and resumes its seat with its
// token and the last event it saw, so it misses nothing. Every message carries an id, so a
// refusal (its "re") names the message refused; one refused as "unavailable" (the
// table store stalled) or "rate_limited" changed nothing and is sent again after a
// jittered pause doubling from 0.25 s to 4 s, for up to a minute. Text from the
// server is printed with its control characters replaced. The URL it connects to names
// its table (ws://host/t/TABLE_ID), so that a load balancer sends it to the node of the
// table's other players; it keeps trying to come back for a minute (a rolling restart
// takes seconds). See docs/CLIENTS.md.

const [url = "ws://127.0.0.1:8765/", table = "new", ...flags] = process.argv.slice(2);
const seatFlag = flags.indexOf("--seat");
const seat = seatFlag >= 0 ? Number(flags[seatFlag + 1]) : null;
const start = flags.includes("--start");
const deals = flags.includes("--deals") ? Number(flags[flags.indexOf("--deals") + 1]) : 1;

let ws = null;
let nextId = 1;
const unanswered = new Map(); // id -> { message, tries, since }: what was sent with it
const send = (message, tries = 0, since = Date.now()) => {
  const id = nextId++;
  unanswered.set(id, { message, tries, since });
  ws.send(JSON.stringify({ ...message, id }));
};
const RETRIED = new Set(["unavailable", "rate_limited"]); // refused, so nothing changed
// A refused message sent again, unchanged, after a pause; false when the minute is up.
function sendAgain(sent) {
  const full = Math.min(4000, 250 * 2 ** sent.tries);
  const pause = full / 2 + (Math.random() * full) / 2;
  if (Date.now() + pause - sent.since > 60000) return false;
  const socket = ws;
  setTimeout(() => {
    if (ws === socket) send(sent.message, sent.tries + 1, sent.since); // else it resumed
  }, pause);
  return true;
}
// What the server says is printed as text: no escape sequence reaches the terminal.
const printable = (text) => String(text).replace(/[\p{C}\u2028\u2029]/gu, "\uFFFD");
let mySeat = null;
let token = null; // the seat's: resumes it after a lost connection
let lastSeq = null; // the last event seen, so that a resume replays only what was missed
let over = false;
let retries = 0;
let lostSince = null; // when the connection was lost, until a new one is welcomed
const RECONNECT_MS = 60000; // how long it keeps trying to reconnect
let lastStatus = null;
// A next_deal unanswered when the connection was lost, said again once the seat is resumed: a
// resumed seat is told its turns again, not that the table still waits for it between deals
// (a late next_deal is ignored), and the table would wait its whole next_deal_seconds.
let readyAgain = false;
let tableId = table === "new" || table === "queue" ? null : table; // in the URL once known
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
  const sent = message.re != null ? unanswered.get(message.re) : undefined;
  const answered = sent?.message.type;
  if (message.re != null) unanswered.delete(message.re); // an answer, an ack or an error
  switch (message.type) {
    case "welcome":
      retries = 0;
      lostSince = null;
      if (token) send({ type: "resume", token, last_seq: lastSeq });
      else if (table === "new") send({ type: "create_table", options: { deals } });
      else if (table === "queue") send({ type: "queue", mode: "casual", deals, name: "node-bot" });
      else send({ type: "join", table_id: table, seat, name: "node-bot" });
      break;
    case "table_created":
      send({ type: "join", table_id: message.table.table_id, seat, name: "node-bot" });
      break;
    case "match_found": // quick play found a table: confirm before its deadline
      send({ type: "ready", match_id: message.match_id });
      break;
    case "queue_status": // the search ended without a seat (not answered in time, cancelled)
      if (message.state !== "searching" && message.reason !== "seated") {
        console.error(`quick play ended: ${printable(message.reason ?? message.state)}`);
        process.exit(1);
      }
      break;
    case "joined":
      if (token === null) {
        const how = table === "queue" ? "seated by quick play at" : "seated at";
        console.error(`${how} ${message.table_id}, seat ${message.seat}`);
      }
      mySeat = message.seat;
      token = message.token;
      tableId = message.table_id;
      if (readyAgain) send({ type: "next_deal" });
      readyAgain = false;
      break;
    case "snapshot":
      lastSeq = message.seq;
      hand = message.view ? message.view.hand : [];
      if (start && message.table.status === "waiting") send({ type: "start" });
      if (message.your_turn) send({ type: "act", action: decide(message.your_turn.legal, hand) });
      break;
    case "events": // one commit's events, in order; then the turn they give this seat
      for (const { seq, event } of message.events) {
        lastSeq = seq;
        onEvent(event);
      }
      if (message.your_turn) send({ type: "act", action: decide(message.your_turn.legal, hand) });
      break;
    case "your_turn": // version 1's frames, which this bot still reads
      if (message.seq !== lastSeq) break; // stale: events came after it (PROTOCOL.md, section 5)
      send({ type: "act", action: decide(message.legal, hand) });
      break;
    case "event":
      lastSeq = message.seq;
      onEvent(message.event);
      break;
    case "error":
      if (answered === "next_deal" && message.code === "not_started") break; // after the last deal
      if (message.code === "maintenance" && message.re == null) {
        console.error(`the server says: ${printable(message.message)}`); // play goes on
        break;
      }
      console.error(`refused (${answered ?? "?"} #${message.re ?? "?"}): ${message.code}: ${printable(message.message)}`);
      if (sent && RETRIED.has(message.code) && sendAgain(sent)) break;
      if (message.code === "outcome_unknown") {
        ws.close(); // maybe applied: resume, and the server says where the table is
        break;
      }
      process.exit(1);
      break;
    case "bye":
      console.error(`bye: ${printable(message.reason)}`);
      if (message.reason !== "shutdown") process.exit(1); // replaced: the seat is another's
      ws.close(); // shutdown: close it at once, and resume on another node (section 14)
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
      over = true;
      console.log(JSON.stringify({ seat: mySeat, totals: event.totals }));
      ws.close();
      process.exit(0);
  }
}

// The server URL with the table in its path: ws://host:8765/ -> ws://host:8765/t/TABLE_ID.
function tableUrl(base, id) {
  if (!id) return base;
  const u = new URL(base);
  u.pathname = u.pathname.replace(/\/t\/.*$/, "/").replace(/\/?$/, "/") + "t/" + encodeURIComponent(id);
  return u.toString();
}

function connect() {
  const socket = (ws = new WebSocket(tableUrl(url, tableId), "tarot.v2.json"));
  let opened = false;
  let gone = false;
  const lost = () => {
    if (gone) return; // Node 22 says close after a failed connection, Node 20 only error
    gone = true;
    reconnect();
  };
  socket.addEventListener("open", () => {
    opened = true;
    send({ type: "hello", protocol: 2, client: "node-bot" });
  });
  socket.addEventListener("message", (e) => onMessage(JSON.parse(e.data)));
  socket.addEventListener("error", (e) => {
    console.error(`connection error: ${e.message ?? e.type}`);
    if (!opened) lost();
  });
  socket.addEventListener("close", lost);
}

function reconnect() {
  readyAgain ||= [...unanswered.values()].some((sent) => sent.message.type === "next_deal");
  unanswered.clear(); // what was sent on this connection is answered on none other
  if (over) return;
  lostSince ??= Date.now();
  if (token === null || Date.now() - lostSince > RECONNECT_MS) {
    console.error("connection lost");
    process.exit(1);
  }
  const full = Math.min(2000, 100 * 2 ** retries++); // 0.1 s, 0.2 s, ... then 2 s
  const delay = Math.round(full / 2 + (Math.random() * full) / 2);
  console.error(`connection lost; resuming seat ${mySeat} in ${delay} ms`);
  setTimeout(connect, delay);
}

connect();
