// The client's picture of one table, built only from what the server sends:
// a snapshot (SeatView + TableSummary) and then the numbered events, in order.
// Display only: which moves are legal always comes from `your_turn.legal`.

import { isTrump } from "./cards.js";

function emptySeats() {
  return [0, 1, 2, 3].map((seat) => ({ seat, occupant: "empty", name: "", connected: false }));
}

/** A fresh table picture. */
export function newTable(tableId = null, mySeat = null) {
  return {
    tableId,
    seat: mySeat, // my seat, or null when watching
    seq: 0, // the last event applied
    summary: {
      table_id: tableId,
      options: {},
      seats: emptySeats(),
      status: "waiting",
      deal_number: 0,
      totals: [0, 0, 0, 0],
    },
    deal: null,
    legal: null,
    deadline: null,
    history: [], // [{deal_number, sheet, totals}] of the deals seen here
    record: null,
    records: {}, // deal number -> its tarot-record/1, to save
    over: false,
    ready: false, // I asked for the next deal
    waitingFor: null, // between deals: the seats the next deal waits for (between_deals)
  };
}

function newDeal(number, dealer) {
  return {
    number,
    dealer,
    phase: "bidding",
    toAct: null,
    hand: [],
    handSizes: [18, 18, 18, 18],
    bids: [],
    taker: null,
    contract: null,
    chien: null,
    fromChien: [],
    discard: null,
    discardTrumps: [],
    discarded: false,
    chelem: false,
    chelemDecided: false,
    poignees: [],
    trick: null, // {leader, cards, winner}
    tricks: [],
    points: [0, 0], // card points in tricks: [taker's side, defence]
    takerBouts: 0, // bouts in the taker's tricks so far, and the points they ask for (R15)
    target: 56,
    discardPoints: null, // the taker's own view: what the discard adds at the end (R6)
    tricksWon: [0, 0, 0, 0],
    sheet: null,
    cancelled: null,
  };
}

/** Replace the picture with a snapshot's. */
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
  const d = newDeal(v.deal_number, v.dealer);
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
    discarded: v.discard !== null || v.discard_trumps.length > 0 || v.phase === "play",
    chelem: v.chelem,
    chelemDecided: v.phase === "play" || v.phase === "done",
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
  table.deal = d;
  table.legal = v.legal;
  const kept = table.records[v.deal_number];
  if (kept && kept.dealer !== v.dealer) delete table.records[v.deal_number]; // a cancelled deal's
  if (v.sheet) {
    // A deal dealt again after a cancelled one has its number: its sheet replaces that one's.
    table.history = table.history.filter((h) => h.deal_number !== v.deal_number);
    table.history.push({ deal_number: v.deal_number, sheet: v.sheet, totals: snap.table.totals });
  }
  return table;
}

function removeCards(hand, cards) {
  const gone = new Set(cards);
  return hand.filter((c) => !gone.has(c));
}

/** Apply one event (already in sequence); returns the table. */
export function applyEvent(table, seq, ev) {
  table.seq = seq;
  const d = table.deal;
  const apply = HANDLERS[ev.kind];
  if (apply) apply(table, d, ev);
  return table;
}

/** The seat has acted: nobody is to act until the next `turn` event says who. */
function done(deal, seat) {
  if (deal.toAct === seat) deal.toAct = null;
}

const HANDLERS = {
  hidden() {},
  seat(table, _d, ev) {
    table.summary.seats[ev.seat.seat] = ev.seat;
  },
  deal_started(table, _d, ev) {
    // A deal dealt again after a cancelled one has its number: that one's record is not its.
    delete table.records[ev.deal_number];
    table.deal = newDeal(ev.deal_number, ev.dealer);
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
    d.phase = ev.contract === "prise" || ev.contract === "garde" ? "discard" : "chelem";
  },
  chien(table, d, ev) {
    d.chien = [...ev.cards];
    if (d.taker !== null) d.handSizes[d.taker] += ev.cards.length;
    if (table.seat !== null && table.seat === d.taker) {
      d.hand = [...d.hand, ...ev.cards];
      d.fromChien = [...ev.cards];
    }
  },
  discard(_t, d, ev) {
    done(d, ev.seat);
    d.discardTrumps = [...ev.trumps];
    d.discarded = true;
    d.handSizes[ev.seat] = Math.max(0, d.handSizes[ev.seat] - 6);
    d.fromChien = [];
    d.phase = "chelem";
  },
  discard_kept(table, d, ev) {
    d.discard = [...ev.cards];
    d.discardPoints = ev.points ?? null;
    if (ev.seat === table.seat) d.hand = removeCards(d.hand, ev.cards);
  },
  chelem(_t, d, ev) {
    done(d, ev.seat);
    d.chelem = ev.announced;
    d.chelemDecided = true;
    d.phase = "play";
  },
  poignee(_t, d, ev) {
    d.poignees.push({ seat: ev.seat, level: ev.level, cards: [...ev.cards] });
  },
  card(table, d, ev) {
    d.phase = "play";
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
    table.history.push({ deal_number: ev.deal_number, sheet: ev.sheet, totals: ev.totals });
  },
  record(table, _d, ev) {
    table.record = ev.record;
    table.records[ev.deal_number] = ev.record;
  },
  between_deals(table, _d, ev) {
    table.summary.next_deal_ms = ev.deadline_ms;
    table.waitingFor = ev.waiting_for;
  },
  table_over(table, _d, ev) {
    table.over = true;
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
