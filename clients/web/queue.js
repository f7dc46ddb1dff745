// @ts-check
// The event queue: every table message is applied in order, with a short pause after
// each event so that a human can follow the AI's moves; a backlog (a replay after a
// reload) is applied at once.

import { turnAlert } from "./alert.js";
import { sleep } from "./dom.js";
import { t } from "./i18n.js";
import { announceLive, narrate } from "./narrate.js";
import { renderTable } from "./render.js";
import { loadDiscard, storeHistory } from "./session.js";
import { app, SPEED } from "./state.js";
import { dispatch } from "./store.js";

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

// The frames waiting to be shown, and the pump's clock: the queue's own, not the page's
// state (the picture changes only when a frame is shown, by the store's `frame` action).
const waiting = {
  /** @type {TableFrame[]} */
  frames: [],
  pumping: false,
  nextAt: 0,
};

/** @param {TableFrame} msg */
export function enqueue(msg) {
  waiting.frames.push(msg);
  pump();
}

/** How many frames wait, and whether they are being shown (for tests: window.cardavia). */
export function queueState() {
  return { frames: waiting.frames.length, pumping: waiting.pumping };
}

/** Frames of a table no longer followed are not shown. */
export function clearQueue() {
  waiting.frames = [];
}

/** @param {TableFrame} msg */
function significant(msg) {
  return msg.type === "event" && PAUSES[msg.event.kind] !== undefined;
}

function catchingUp() {
  if (performance.now() < app.fastUntil) return true;
  return waiting.frames.filter(significant).length > 30;
}

async function pump() {
  if (waiting.pumping) return;
  waiting.pumping = true;
  try {
    while (waiting.frames.length) {
      const wait = waiting.nextAt - performance.now();
      if (wait > 0 && !catchingUp()) await sleep(wait);
      const msg = waiting.frames.shift();
      if (!msg) break;
      const fast = catchingUp();
      const after = handle(msg, fast);
      const pause = fast ? 0 : pauseFor(msg) * SPEED;
      waiting.nextAt = performance.now() + pause;
      if (after) {
        if (pause > 0) await sleep(pause);
        await after(fast);
        waiting.nextAt = performance.now();
      }
      renderTable();
    }
  } finally {
    waiting.pumping = false;
  }
}
/** A reload while choosing the discard: the cards chosen before are chosen again (those
 * still allowed, with the required ones), up to the count. */
function keepDiscard(table) {
  const rule = table.legal && table.legal.discard;
  if (!rule) return;
  const allowed = new Set(rule.allowed);
  const kept = loadDiscard(table).filter((c) => allowed.has(c) && !rule.required.includes(c));
  const cards = [...rule.required, ...kept].slice(0, rule.count);
  dispatch("choose", { selected: new Set(cards) });
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
  const seq = table.seq;
  dispatch("frame", msg);
  if (msg.type === "snapshot") {
    keepDiscard(table);
    return null;
  }
  if (msg.type === "your_turn") {
    if (msg.seq < seq) return null; // older than the picture: nothing changed
    keepDiscard(table);
    announceLive(() => t("turn.yours"));
    if (!quiet) turnAlert();
    return null;
  }
  const ev = msg.event;
  narrate(table, ev, quiet);
  if (ev.kind === "score" || ev.kind === "record") storeHistory(table);
  if (ev.kind === "trick") {
    // After the pause, the cards slide to the winner, then the centre is cleared.
    return async (fast) => {
      const d = table.deal;
      if (!d || !d.trick || d.trick.winner === null) return;
      if (!fast && SPEED > 0) {
        dispatch("trickLeaving", table);
        renderTable();
        await sleep(320);
      }
      dispatch("trickGone", table);
    };
  }
  return null;
}
