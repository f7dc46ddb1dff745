// @ts-check
// The client's picture of one table, built only from what the server sends:
// a snapshot (SeatView + TableSummary) and then the numbered events, in order, as
// docs/PROTOCOL.md ("Keeping your own view") folds them. Display only: no rule is
// decided here. Which moves are legal comes from `your_turn.legal`, whose turn and
// which phase from the `turn` events, how many cards the discard takes from the chien.

import { isTrump, parse, SUITS } from "./cards.js";

/** @typedef {import("./messages").Snapshot} Snapshot */
/** @typedef {import("./messages").YourTurn} YourTurn */
/** @typedef {import("./messages").Event} EventFrame */
/** @typedef {EventFrame["event"]} TableEvent */
/** @typedef {Snapshot | YourTurn | EventFrame} TableFrame  what a table sends its followers */
/** @typedef {import("./messages").LegalChoices} LegalChoices */
/** @typedef {import("./messages").TableSummary} TableSummary */
/** @typedef {import("./messages").ScoreSheet} ScoreSheet */
/** @typedef {import("./messages").SeatView} SeatView */
/** @typedef {import("./messages").SeatInfo} SeatInfo */
/** @typedef {import("./messages").BidInfo} BidInfo */
/** @typedef {import("./messages").PoigneeInfo} PoigneeInfo */
/** @typedef {{leader: number, cards: string[], winner: number | null, leaving?: boolean}} Trick */
/** @typedef {ReturnType<typeof newDeal>} Deal  the picture of the deal under way */
/** @typedef {ReturnType<typeof newTable>} Table  the picture of a table */

/** @returns {SeatInfo[]} */
function emptySeats() {
  return [0, 1, 2, 3].map((seat) => ({ seat, occupant: "empty", name: "", connected: false, away_until_ms: null }));
}

/**
 * A fresh table picture.
 * @param {string | null} tableId
 * @param {number | null} mySeat
 */
export function newTable(tableId = null, mySeat = null) {
  return {
    tableId,
    seat: mySeat, // my seat, or null when watching
    seq: 0, // the last event applied
    summary: /** @type {TableSummary} */ ({
      table_id: tableId,
      options: {},
      seats: emptySeats(),
      status: "waiting",
      deal_number: 0,
      totals: [0, 0, 0, 0],
    }),
    deal: /** @type {Deal | null} */ (null),
    legal: /** @type {LegalChoices | null} */ (null),
    deadline: /** @type {number | null} */ (null),
    /** @type {{deal_number: number, sheet: ScoreSheet, totals: number[], seats?: SeatInfo[]}[]} */
    history: [], // the deals seen here, each with who held the seats then
    record: /** @type {object | null} */ (null),
    /** @type {Record<number, any>} */
    records: {}, // deal number -> its tarot-record/1, to save
    over: false,
    ready: false, // I asked for the next deal
    waitingFor: /** @type {number[] | null} */ (null), // between deals: the seats the next deal waits for (between_deals)
    /** @type {any[]} */
    chat: [], // the chat events seen here, each with its seq (chat.js)
    /** @type {Record<number, any[]>} */
    ratings: {}, // deal number -> each rated seat's rating before and after (the sheet)
    rematch: /** @type {any} */ (null), // the latest rematch event of a finished table
    rematchAnswer: /** @type {boolean | null} */ (null), // what this page answered, before the server tells the table
    rematchClosed: false, // the server refused an answer with rematch_closed: the offer closed unseen here
  };
}

/**
 * @param {number} number
 * @param {number} dealer
 */
function newDeal(number, dealer, seats = emptySeats()) {
  return {
    number,
    dealer,
    seats: /** @type {SeatInfo[]} */ (seats.map((s) => ({ ...s }))), // who held each seat when the deal began: the sheet and log name them
    phase: /** @type {SeatView["phase"]} */ ("bidding"),
    toAct: /** @type {number | null} */ (null),
    hand: /** @type {string[]} */ ([]),
    handSizes: [18, 18, 18, 18],
    bids: /** @type {BidInfo[]} */ ([]),
    taker: /** @type {number | null} */ (null),
    contract: /** @type {SeatView["contract"]} */ (null),
    chien: /** @type {string[] | null} */ (null),
    fromChien: /** @type {string[]} */ ([]),
    discard: /** @type {string[] | null} */ (null),
    discardTrumps: /** @type {string[]} */ ([]),
    discarded: false,
    chelem: false,
    poignees: /** @type {PoigneeInfo[]} */ ([]),
    trick: /** @type {Trick | null} */ (null),
    tricks: /** @type {Trick[]} */ ([]),
    points: [0, 0], // card points in tricks: [taker's side, defence]
    takerBouts: 0, // bouts in the taker's tricks so far, and the points they ask for (R15)
    target: 56,
    discardPoints: /** @type {number | null} */ (null), // the taker's own view: what the discard adds at the end (R6)
    tricksWon: [0, 0, 0, 0],
    sheet: /** @type {ScoreSheet | null} */ (null),
    cancelled: /** @type {string | null} */ (null), // why the deal was cancelled
  };
}

/**
 * Replace the picture with a snapshot's.
 * @param {Table} table
 * @param {Snapshot} snap
 */
export function applySnapshot(table, snap) {
  table.tableId = snap.table_id;
  table.seq = snap.seq;
  table.summary = snap.table;
  table.over = snap.table.status === "finished";
  table.waitingFor = null; // a snapshot says when the next deal starts, not whom it waits for
  const v = snap.view;
  if (!v) {
    table.deal = null;
    table.legal = null;
    return table;
  }
  if (v.seat !== null && v.seat !== undefined) table.seat = v.seat;
  const d = newDeal(v.deal_number, v.dealer, snap.table.seats);
  Object.assign(d, {
    phase: v.phase,
    toAct: v.to_act,
    hand: [...v.hand],
    handSizes: [...v.hand_sizes],
    bids: v.bids.map((b) => ({ ...b })),
    taker: v.taker,
    contract: v.contract,
    chien: v.chien,
    discard: v.discard,
    discardTrumps: [...v.discard_trumps],
    // The discard event came: the chien was shown and the server has moved on from it.
    discarded: v.chien !== null && v.phase !== "bidding" && v.phase !== "discard",
    chelem: v.chelem,
    poignees: v.poignees.map((p) => ({ ...p })),
    trick: v.trick ? { leader: v.trick.leader, cards: [...v.trick.cards], winner: null } : null,
    tricks: v.tricks.map((t) => ({ ...t })),
    points: [...v.points],
    takerBouts: v.taker_bouts ?? 0,
    target: v.target ?? 56,
    discardPoints: v.discard_points ?? null,
    tricksWon: [...v.tricks_won],
    sheet: v.sheet,
  });
  if (v.sheet && v.sheet.status === "cancelled") d.cancelled = v.sheet.reason;
  if (table.over) d.toAct = null; // nobody is to play at a finished table
  table.deal = d;
  table.legal = v.legal;
  const kept = table.records[v.deal_number];
  if (kept && kept.dealer !== v.dealer) delete table.records[v.deal_number]; // a cancelled deal's
  if (v.sheet) {
    // A deal dealt again after a cancelled one has its number: its sheet replaces that one's.
    table.history = table.history.filter((h) => h.deal_number !== v.deal_number);
    table.history.push({ deal_number: v.deal_number, sheet: v.sheet, totals: snap.table.totals, seats: d.seats });
  }
  return table;
}

/**
 * Fold one table frame (a snapshot, an event in sequence, or your_turn) into the
 * picture; returns false for a your_turn older than the picture (nothing changes).
 * The page's queue and the tests call this one function.
 *
 * @param {Table} table
 * @param {TableFrame} msg
 */
export function applyFrame(table, msg) {
  if (msg.type === "snapshot") {
    const history = table.history;
    applySnapshot(table, msg);
    if (!table.history.length) table.history = history; // kept by the browser (session.js)
    return true;
  }
  if (msg.type === "your_turn") {
    if (msg.seq < table.seq) return false;
    table.legal = msg.legal;
    table.deadline = msg.deadline_ms ?? table.deadline;
    return true;
  }
  applyEvent(table, msg.seq, msg.event);
  return true;
}

/** The order the server lists cards in (PROTOCOL.md 2): T1…T21, EX, then each suit 1…K. */
function deckOrder(cards) {
  const key = (code) => {
    const c = parse(code);
    if (c.kind === "trump") return c.n;
    if (c.kind === "excuse") return 22;
    return 23 + SUITS.indexOf(c.suit) * 14 + c.value;
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

function removeCards(hand, cards) {
  const gone = new Set(cards);
  return hand.filter((c) => !gone.has(c));
}

/**
 * Apply one event (already in sequence); returns the table.
 * @param {Table} table
 * @param {number} seq
 * @param {TableEvent} ev
 */
export function applyEvent(table, seq, ev) {
  table.seq = seq;
  const d = table.deal;
  const apply = /** @type {(table: Table, d: Deal, ev: TableEvent) => void} */ (HANDLERS[ev.kind]);
  if (apply) apply(table, d, ev);
  return table;
}

/**
 * The seat has acted: nobody is to act until the next `turn` event says who.
 * @param {Deal} deal
 * @param {number} seat
 */
function done(deal, seat) {
  if (deal.toAct === seat) deal.toAct = null;
}

/** One fold per event kind, each given its own event's type (messages.d.ts).
 * @type {{[K in TableEvent["kind"]]: (table: Table, d: Deal, ev: Extract<TableEvent, {kind: K}>) => void}} */
const HANDLERS = {
  hidden() {},
  seat(table, _d, ev) {
    table.summary.seats[ev.seat.seat] = ev.seat;
  },
  deal_started(table, _d, ev) {
    // A deal dealt again after a cancelled one has its number: that one's record is not its.
    delete table.records[ev.deal_number];
    table.deal = newDeal(ev.deal_number, ev.dealer, table.summary.seats);
    table.summary.status = "playing";
    table.summary.deal_number = ev.deal_number;
    table.summary.next_deal_ms = null;
    table.waitingFor = null;
    table.legal = null;
    table.ready = false;
  },
  hand(table, d, ev) {
    if (d && ev.seat === table.seat) d.hand = [...ev.cards];
  },
  bid(_t, d, ev) {
    d.bids.push({ seat: ev.seat, contract: ev.contract });
    done(d, ev.seat);
  },
  taker(_t, d, ev) {
    d.taker = ev.seat;
    d.contract = ev.contract;
  },
  chien(table, d, ev) {
    d.chien = [...ev.cards];
    if (d.taker !== null) d.handSizes[d.taker] += ev.cards.length;
    if (table.seat !== null && table.seat === d.taker) {
      d.hand = deckOrder([...d.hand, ...ev.cards]);
      d.fromChien = [...ev.cards];
    }
  },
  discard(_t, d, ev) {
    done(d, ev.seat);
    d.discardTrumps = [...ev.trumps];
    d.discarded = true;
    // The discard puts back as many cards as the chien brought (PROTOCOL.md 6).
    d.handSizes[ev.seat] = Math.max(0, d.handSizes[ev.seat] - (d.chien ? d.chien.length : 0));
    d.fromChien = [];
  },
  discard_kept(table, d, ev) {
    d.discard = [...ev.cards];
    d.discardPoints = ev.points ?? null;
    if (ev.seat === table.seat) d.hand = removeCards(d.hand, ev.cards);
  },
  chelem(_t, d, ev) {
    done(d, ev.seat);
    d.chelem = ev.announced;
  },
  poignee(_t, d, ev) {
    d.poignees.push({ seat: ev.seat, level: ev.level, cards: [...ev.cards] });
  },
  card(table, d, ev) {
    if (!d.trick || d.trick.winner !== null || d.trick.cards.length >= 4) {
      d.trick = { leader: ev.seat, cards: [], winner: null };
    }
    d.trick.cards.push(ev.card);
    done(d, ev.seat);
    d.handSizes[ev.seat] = Math.max(0, d.handSizes[ev.seat] - 1);
    if (ev.seat === table.seat) d.hand = removeCards(d.hand, [ev.card]);
  },
  trick(_t, d, ev) {
    const trick = { leader: ev.leader, cards: [...ev.cards], winner: ev.winner };
    d.trick = trick;
    d.tricks.push(trick);
    d.tricksWon[ev.winner] += 1;
    if (Array.isArray(ev.points)) d.points = [...ev.points]; // the server's count (R13-R15)
    if (ev.target !== undefined) [d.takerBouts, d.target] = [ev.taker_bouts, ev.target];
  },
  turn(table, d, ev) {
    if (d) {
      d.toAct = ev.seat;
      d.phase = ev.phase;
    }
    table.legal = null;
    table.deadline = ev.deadline_ms ?? null;
  },
  cancelled(_t, d, ev) {
    d.cancelled = ev.reason;
    d.phase = "done";
    d.toAct = null;
  },
  score(table, d, ev) {
    if (d) {
      d.sheet = ev.sheet;
      d.phase = "done";
      d.toAct = null;
    }
    table.summary.totals = ev.totals;
    table.legal = null;
    table.history = table.history.filter((h) => h.deal_number !== ev.deal_number);
    const seats = d ? d.seats : table.summary.seats.map((s) => ({ ...s }));
    table.history.push({ deal_number: ev.deal_number, sheet: ev.sheet, totals: ev.totals, seats });
  },
  record(table, _d, ev) {
    table.record = ev.record;
    table.records[ev.deal_number] = ev.record;
  },
  between_deals(table, _d, ev) {
    table.summary.next_deal_ms = ev.deadline_ms;
    table.waitingFor = ev.waiting_for;
  },
  chat(table, _d, ev) {
    table.chat.push({ seq: table.seq, ...ev });
    if (table.chat.length > 200) table.chat.shift();
  },
  ratings(table, _d, ev) {
    table.ratings[ev.deal_number] = ev.changes;
  },
  rematch(table, _d, ev) {
    table.rematch = ev;
  },
  table_over(table, d, ev) {
    table.over = true;
    if (d) d.toAct = null; // nobody is to play at a finished table
    table.summary.status = "finished";
    table.summary.totals = ev.totals;
    table.summary.next_deal_ms = null;
  },
};

/** The trumps a player may pick from when choosing another poignee subset (display help). */
export function poigneePool(hand, offers) {
  const pool = new Set(hand.filter((c) => isTrump(c) || c === "EX"));
  for (const offer of offers) for (const c of offer.cards) pool.add(c);
  return pool;
}

/** Seat positions on screen, relative to mine: bottom, right, top, left (R1: anticlockwise). */
export function position(seat, mySeat) {
  const base = mySeat ?? 0;
  return ["bottom", "right", "top", "left"][(seat - base + 4) % 4];
}
