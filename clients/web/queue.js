// @ts-check
// The event queue: every table message is applied in order, with a short pause after
// each event so that a human can follow the AI's moves; a backlog (a replay after a
// reload) is applied at once.

import { turnAlert } from "./alert.js";
import { sleep } from "./dom.js";
import { applyFrame } from "./game.js";
import { t } from "./i18n.js";
import { announceLive, narrate } from "./narrate.js";
import { renderTable } from "./render.js";
import { storeHistory } from "./session.js";
import { app, SPEED } from "./state.js";

// Pauses after each event, in ms at speed 1: long enough to follow, short enough to flow.
const PAUSES = {
  deal_started: 500,
  hand: 400,
  bid: 750,
  taker: 900,
  chien: 2200,
  discard: 700,
  chelem: 300,
  poignee: 1800,
  card: 700,
  trick: 1400,
  cancelled: 2200,
};

/** @typedef {import("./game.js").TableFrame} TableFrame */

/** @param {TableFrame} msg */
export function enqueue(msg) {
  app.queue.push(msg);
  pump();
}

/** @param {TableFrame} msg */
function significant(msg) {
  return msg.type === "event" && PAUSES[msg.event.kind] !== undefined;
}

function catchingUp() {
  if (performance.now() < app.fastUntil) return true;
  return app.queue.filter(significant).length > 30;
}

async function pump() {
  if (app.pumping) return;
  app.pumping = true;
  try {
    while (app.queue.length) {
      const wait = app.nextAt - performance.now();
      if (wait > 0 && !catchingUp()) await sleep(wait);
      const msg = app.queue.shift();
      if (!msg) break;
      const fast = catchingUp();
      const after = handle(msg, fast);
      const pause = fast ? 0 : pauseFor(msg) * SPEED;
      app.nextAt = performance.now() + pause;
      if (after) {
        if (pause > 0) await sleep(pause);
        await after(fast);
        app.nextAt = performance.now();
      }
      renderTable();
    }
  } finally {
    app.pumping = false;
  }
}

/** @param {TableFrame} msg */
function pauseFor(msg) {
  if (msg.type !== "event") return 0;
  const ev = msg.event;
  const table = app.table;
  if (ev.kind === "card" && ev.seat === table.seat) return 250;
  if (ev.kind === "chien" && table.deal && table.deal.taker === table.seat) return 600;
  if (ev.kind === "chelem" && ev.announced) return 1600;
  return PAUSES[ev.kind] || 0;
}

/**
 * Apply one message to the picture; may return a step to run after its pause.
 * @param {TableFrame} msg
 */
function handle(msg, quiet = false) {
  const table = app.table;
  if (!table) return null;
  if (!applyFrame(table, msg)) return null;
  if (msg.type === "snapshot") {
    resetChoice();
    if (table.legal) prepareChoice(table.legal);
    return null;
  }
  if (msg.type === "your_turn") {
    resetChoice();
    prepareChoice(msg.legal);
    announceLive(t("turn.yours"));
    if (!quiet) turnAlert();
    app.focusTurn = true;
    return null;
  }
  const ev = msg.event;
  narrate(table, ev, quiet);
  if (ev.kind === "deal_started") {
    app.ui.sheetFor = null;
    app.ui.seen = new Map();
  }
  if (ev.kind === "turn" && ev.seat !== table.seat) resetChoice();
  if (ev.kind === "score") storeHistory(table);
  if (ev.kind === "score" && ev.sheet.status === "played") app.ui.sheetFor = ev.deal_number;
  if (ev.kind === "table_over" && table.history.length) app.ui.sheetFor = table.history[table.history.length - 1].deal_number;
  if (ev.kind === "trick") {
    // After the pause, the cards slide to the winner, then the centre is cleared.
    return async (fast) => {
      const d = table.deal;
      if (!d || !d.trick || d.trick.winner === null) return;
      if (!fast && SPEED > 0) {
        d.trick.leaving = true;
        renderTable();
        await sleep(320);
      }
      if (d.trick && d.trick.winner !== null) d.trick = null;
    };
  }
  return null;
}

export function resetChoice() {
  app.ui.selected = new Set();
  app.ui.reason = null;
  app.ui.poignee = null;
  app.ui.pool = new Set();
  app.ui.pending = null;
  app.ui.asking = null;
  app.ui.chosen = null;
  app.ui.confirmChelem = false;
  app.ui.lastLegal = null;
}

function prepareChoice(legal) {
  if (legal.discard) app.ui.selected = new Set(legal.discard.required);
}
