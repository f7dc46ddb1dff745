// @ts-check
// The one place the page's state changes. Every change is a named action: a small
// function of the state (state.js) and its arguments, called through `dispatch`.
// Modules read `app` and dispatch; the views render from the state and change
// nothing; the table picture itself changes only through game.js's fold (the
// `frame` action). tests/web/test_state_changes.py fails on an assignment elsewhere.

import { applyFrame, newTable } from "./game.js";
import { goTo, onReviewMessage } from "./review.js";
import { app, freshUi } from "./state.js";

/** @typedef {typeof app} State */
/** @typedef {import("./game.js").TableFrame} TableFrame */
/** @typedef {ReturnType<typeof freshUi>} Ui */

/** What the player is choosing now, cleared (a new turn, a snapshot, an action refused). */
function clearChoice(ui) {
  Object.assign(ui, {
    selected: new Set(),
    reason: null,
    poignee: null,
    pool: new Set(),
    pending: null,
    asking: null,
    chosen: null,
    confirmChelem: false,
    lastLegal: null,
  });
}

/** A table followed from now on: a fresh picture, nothing received yet, nothing chosen. */
function follow(s, tableId, seat, options = {}, history = [], records = {}) {
  s.table = newTable(tableId, seat);
  s.table.summary.options = options;
  s.table.history = history;
  s.table.records = records;
  s.receivedSeq = 0;
  s.ui = freshUi();
}

const ACTIONS = {
  // ---------------------------------------------------------------- connection
  /** @param {State} s @param {string} status */
  connection(s, status) {
    s.conn = status;
  },
  /** A new connection (another server, or the first): no table followed yet. */
  connecting(s, net) {
    s.net = net;
    s.table = null;
    s.receivedSeq = 0;
  },
  /** @param {State} s @param {boolean} replaced  a newer tab took the seat (or the player takes it back) */
  replaced(s, replaced) {
    s.replaced = replaced;
    if (replaced) s.conn = "replaced";
  },
  session(s, session) {
    s.session = session;
  },
  /** @param {State} s  the seat another tab is playing, offered here ("Play here") */
  elsewhere(s, session) {
    s.lobby.elsewhere = session;
  },
  /** @param {State} s @param {string | null} url  a server a link names, until the player says */
  askServer(s, url) {
    s.lobby.askServer = url;
  },

  // ---------------------------------------------------------------- lobby
  /** @param {State} s @param {any[]} tables @param {string | null} next */
  tables(s, tables, next = s.lobby.next, pages = s.lobby.pages) {
    Object.assign(s.lobby, { tables, next, pages });
  },
  online(s, count) {
    s.lobby.online = count;
  },
  invite(s, invite) {
    s.lobby.invite = invite;
  },
  /** @param {State} s @param {object} patch  the quick-play state (quickplay.js) */
  quick(s, patch) {
    Object.assign(s.lobby.quick, patch);
  },
  /** @param {State} s @param {"name" | "multiDeals" | "quickAi" | "form"} key */
  lobbyChoice(s, key, value) {
    s.lobby[key] = value;
  },

  // ---------------------------------------------------------------- the table followed
  /** @param {State} s @param {string} tableId @param {number | null} seat */
  enterTable(s, tableId, seat, options = {}, history = [], records = {}) {
    follow(s, tableId, seat, options, history, records);
  },
  leaveTable(s) {
    s.table = null;
    s.ui = freshUi();
  },
  /** @param {State} s @param {number} seat  the seat `joined` says */
  seated(s, seat) {
    s.table.seat = seat;
  },
  /** @param {State} s @param {number} count  spectators now (`spectators`: live, not queued) */
  spectators(s, count) {
    if (s.table) s.table.summary.spectators = count;
  },
  /** @param {State} s @param {number} seq  the last event received (what a resume asks after) */
  received(s, seq) {
    s.receivedSeq = seq;
  },
  /** @param {State} s @param {number} until  no pauses between events until then (a resume) */
  fastUntil(s, until) {
    s.fastUntil = until;
  },
  /** @param {State} s @param {TableFrame} msg  a table frame, folded into the picture (game.js) */
  frame(s, msg) {
    const applied = applyFrame(s.table, msg);
    if (!applied) return;
    if (msg.type === "snapshot" || msg.type === "your_turn") {
      clearChoice(s.ui);
      if (s.table.legal && s.table.legal.discard) s.ui.selected = new Set(s.table.legal.discard.required);
      if (msg.type === "your_turn") s.focusTurn = true;
      // A reload after a deal: its sheet opens again, as it was when the deal ended.
      const d = s.table.deal;
      if (msg.type === "snapshot" && d && d.sheet && d.sheet.status === "played") s.ui.sheetFor = d.number;
      return;
    }
    const ev = msg.event;
    if (ev.kind === "deal_started") {
      s.ui.sheetFor = null;
      s.ui.seen = new Map();
    }
    if (ev.kind === "turn" && ev.seat !== s.table.seat) clearChoice(s.ui);
    if (ev.kind === "score" && ev.sheet.status === "played") s.ui.sheetFor = ev.deal_number;
    const history = s.table.history;
    if (ev.kind === "table_over" && history.length) s.ui.sheetFor = history[history.length - 1].deal_number;
  },
  /** A finished trick slides to its winner, then leaves the felt (the page's animation).
   * @param {State} s @param {import("./game.js").Table} table  the table it was played at */
  trickLeaving(s, table) {
    const d = table.deal;
    if (d && d.trick && d.trick.winner !== null) d.trick.leaving = true;
  },
  /** @param {State} s @param {import("./game.js").Table} table */
  trickGone(s, table) {
    const d = table.deal;
    if (d && d.trick && d.trick.winner !== null) d.trick = null;
  },
  /** The player sent an action: what was legal is kept until the server answers. */
  acted(s) {
    s.ui.lastLegal = s.table.legal;
    s.table.legal = null;
  },
  /** An action refused: what was legal is legal again. */
  refused(s) {
    if (s.table && s.ui.lastLegal && !s.table.legal) s.table.legal = s.ui.lastLegal;
    s.ui.pending = null;
  },
  /** I asked for the next deal. */
  ready(s) {
    s.table.ready = true;
  },
  /** @param {State} s @param {boolean | null} accept  this page's rematch answer, sent (null: it failed) */
  rematchAnswer(s, accept) {
    s.table.rematchAnswer = accept;
  },
  /** The server said the rematch offer closed (rematch_closed): no answer may be sent any more. */
  rematchClosed(s) {
    s.table.rematchClosed = true;
    s.table.rematchAnswer = null;
  },
  /** @param {State} s @param {any} review  the deal review asked for last (review.js) */
  review(s, review) {
    s.review = review;
  },
  /** The review's progress or result, folded by review.js; true when it was the review's. */
  reviewMessage(s, msg) {
    return onReviewMessage(s.review, msg);
  },
  /** @param {State} s @param {number} step  the decision the review shows */
  reviewStep(s, step) {
    if (s.review) goTo(s.review, step);
  },

  // ---------------------------------------------------------------- choosing
  clearChoice(s) {
    clearChoice(s.ui);
  },
  /** @param {State} s @param {Partial<Ui>} change  what the player is choosing (the prompt's state) */
  choose(s, change) {
    Object.assign(s.ui, change);
  },
  /** A card of the hand picked or put back, up to `max` (discard, poignée). */
  toggle(s, code, max, full) {
    const sel = s.ui.selected;
    if (sel.has(code)) sel.delete(code);
    else if (sel.size < max) sel.add(code);
    else s.ui.reason = full;
  },
  /** @param {State} s  a line of the log (a function of the language, narrate.js) */
  logLine(s, line, key = null) {
    if (key !== null && s.ui.logKeys.has(key)) return; // an event told once (a replay or a resume)
    if (key !== null) s.ui.logKeys.add(key);
    s.ui.log.push(line);
    if (s.ui.log.length > 40) s.ui.log.shift();
  },

  // ---------------------------------------------------------------- the page
  /** @param {State} s @param {"table" | "rules"} tab */
  tab(s, tab) {
    s.tab = tab;
  },
  /** @param {State} s @param {string} key @param {boolean} on */
  setting(s, key, on) {
    s.settings[key] = on;
    s.ui.chosen = null;
  },
  lang(s, lang) {
    s.lang = lang;
  },
  face(s, face) {
    s.face = face;
  },
  /** @param {State} s @param {string} key @param {number} value */
  display(s, key, value) {
    s.display[key] = value;
  },
  /** @param {State} s @param {boolean} keyboard  the player walks the page with the keyboard */
  keyboard(s, keyboard) {
    s.keyboardUser = keyboard;
  },
  focusDone(s) {
    s.focusTurn = false;
  },
};

/** @typedef {typeof ACTIONS} Actions */

/**
 * Change the state by a named action (tsc checks the name); returns what it says.
 * @param {keyof Actions} name
 * @param {...any} args
 */
export function dispatch(name, ...args) {
  return /** @type {(s: State, ...a: any[]) => any} */ (ACTIONS[name])(app, ...args);
}
