// @ts-check
// The client's state, shared by its modules: settings, the connection, the table
// picture and what the player is choosing right now. Modules read it; only the named
// actions of store.js change it (and game.js's fold, for the table picture).

import { loadDisplay } from "./display.js";
import { saved } from "./dom.js";
import { getLang } from "./i18n.js";

// Against 3 AI: the levels worth playing (random is a test tool); expert by default,
// strong (search) for a harder game at ~150 ms of server CPU per AI card.
export const QUICK_AI_LEVELS = ["basic", "expert", "strong"];

/** A remembered quick-game AI level, if it is still one offered; else expert. */
function quickAi(level) {
  return QUICK_AI_LEVELS.includes(level) ? level : "expert";
}

export const params = new URLSearchParams(window.location.search);
/** ?speed=0.1 shortens the pauses between events (tests); 1 is normal, 0 none. */
export const SPEED = Math.max(0, Math.min(3, Number(params.get("speed") ?? 1) || 0));

/** A touch screen (no fine pointer): cards are tapped, then confirmed, by default. */
function touchFirst() {
  try {
    return window.matchMedia("(pointer: coarse)").matches;
  } catch {
    return false;
  }
}

export const app = {
  settings: {
    confirmCards: saved.get("confirmCards", touchFirst()), // tap a card, then confirm it
    sound: saved.get("sound", true), // a short sound and a title flash when it is your turn
  },
  lang: getLang(),
  face: saved.get("face", "marseille") === "french" ? "french" : "marseille",
  display: loadDisplay(),
  tab: "table",
  conn: "connecting",
  net: null,
  table: null,
  session: null,
  fastUntil: 0, // no pauses between events until then (a resume catching up)
  receivedSeq: 0,
  replaced: false,
  review: null, // the deal review asked for last (review.js)
  focusTurn: false,
  keyboardUser: false,
  lobby: {
    elsewhere: null,
    askServer: null, // another server a ?server= link names, until the player agrees or not
    tables: [],
    next: null, // the lobby's cursor to the page after the tables shown (null: none)
    pages: 1, // how many pages of tables the player opened ("More tables")
    invite: null,
    // Quick play (quickplay.js): idle, searching, found (a ready check), confirmed, penalty.
    quick: {
      state: "idle",
      mode: saved.get("quickMode", "casual"),
      searching: 0,
      waitedMs: 0,
      at: 0, // performance.now() when waitedMs was said
      match: null, // {id, deadline (ms, server clock), humans, ai}
      penaltyUntil: null,
      notice: null, // why the last search ended ("not_ready")
      seating: false,
    },
    online: /** @type {number | null} */ (null), // connections on the server (an `online` message)
    multiDeals: saved.get("multiDeals", 5),
    quickAi: quickAi(saved.get("quickAi", "expert")), // the AI of the games against 3 AI
    name: saved.get("name", ""),
    form: {
      name: "",
      deals: 5,
      endless: false,
      ai_level: "expert",
      turn_seconds: 0,
      grace_seconds: 60,
      private: false,
    },
  },
  ui: freshUi(),
};

export function freshUi() {
  return {
    selected: new Set(),
    reason: null,
    poignee: null,
    pool: new Set(),
    focus: null,
    pending: null,
    asking: null, // a card not playable now, sent so that the server says why
    chosen: null, // tap-then-confirm: the card lifted, waiting for its confirmation
    confirmLeave: false,
    confirmChelem: false,
    lastLegal: null,
    sheetFor: null,
    reviewOpen: false,
    log: [],
    logKeys: new Set(), // the events already in the log (by table and sequence number)
    announce: null,
    copied: false,
    seen: new Map(),
  };
}
