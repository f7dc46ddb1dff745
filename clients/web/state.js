// The client's state, shared by its modules: settings, the connection, the table
// picture, the event queue and what the player is choosing right now.

import { loadDisplay } from "./display.js";
import { saved } from "./dom.js";
import { getLang } from "./i18n.js";

export const params = new URLSearchParams(window.location.search);
/** ?speed=0.1 shortens the pauses between events (tests); 1 is normal, 0 none. */
export const SPEED = Math.max(0, Math.min(3, Number(params.get("speed") ?? 1) || 0));

export const app = {
  lang: getLang(),
  face: saved.get("face", "marseille") === "french" ? "french" : "marseille",
  display: loadDisplay(),
  tab: "table",
  conn: "connecting",
  net: null,
  table: null,
  session: null,
  queue: [],
  pumping: false,
  nextAt: 0,
  fastUntil: 0,
  receivedSeq: 0,
  replaced: false,
  focusTurn: false,
  keyboardUser: false,
  lobby: {
    elsewhere: null,
    tables: [],
    invite: null,
    multiDeals: saved.get("multiDeals", 5),
    name: saved.get("name", ""),
    form: {
      name: "",
      deals: 5,
      endless: false,
      ai_level: "basic",
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
    lastLegal: null,
    sheetFor: null,
    log: [],
    announce: null,
    copied: false,
    seen: new Map(),
  };
}
