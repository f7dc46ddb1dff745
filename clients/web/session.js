// @ts-check
// Where the seat (or the table watched) is remembered: this tab's sessionStorage and
// the browser's localStorage; a heartbeat tells other tabs this one is playing it.

import { saved, tabSaved } from "./dom.js";
import { app } from "./state.js";
import { dispatch } from "./store.js";

/**
 * This tab's seat, else the one remembered by the browser, unless another tab
 * is playing it right now (it says so every two seconds): then offer it instead.
 */
export function loadSession() {
  const own = tabSaved.get("session");
  if (own) return own;
  const remembered = saved.get("session");
  const alive = saved.get("alive");
  if (remembered && alive && alive.key === sessionKey(remembered) && Date.now() - alive.at < 5000) {
    dispatch("elsewhere", remembered);
    return null;
  }
  return remembered;
}

export function sessionKey(session) {
  return session.token || `watch:${session.table_id}`;
}

export function heartbeat() {
  if (app.session && app.table && !app.replaced) saved.set("alive", { key: sessionKey(app.session), at: Date.now() });
}

/** Remember a seat (or a table watched), with the server that issued it. */
export function storeSession(session) {
  session = { ...session, server: app.net ? app.net.url : null };
  dispatch("session", session);
  tabSaved.set("session", session);
  saved.set("session", session);
}

/** The score sheets of the table's deals seen here: a reload comes back to a snapshot
 * of the table as it is now, and these bring the earlier sheets back with it. */
export function storeHistory(table) {
  saved.set("history", { table_id: table.tableId, history: table.history, records: table.records });
}

export function loadHistory(tableId) {
  const kept = saved.get("history");
  return kept && kept.table_id === tableId && Array.isArray(kept.history) ? kept.history : [];
}

/** The deals' records kept with their sheets: "Review this deal" and "Save the deal" after a reload. */
export function loadRecords(tableId) {
  const kept = saved.get("history");
  return kept && kept.table_id === tableId && kept.records && typeof kept.records === "object" ? kept.records : {};
}

/** The cards chosen for the discard, kept across a reload (this table, this deal). */
export function storeDiscard(table) {
  const d = table.deal;
  if (d) saved.set("discard", { table_id: table.tableId, deal: `${d.number}-${d.dealer}`, cards: [...app.ui.selected] });
}

export function loadDiscard(table) {
  const kept = saved.get("discard");
  const d = table.deal;
  const same = kept && d && kept.table_id === table.tableId && kept.deal === `${d.number}-${d.dealer}`;
  return same && Array.isArray(kept.cards) ? kept.cards : [];
}

export function clearSession() {
  dispatch("session", null);
  tabSaved.set("session", null);
  saved.set("session", null);
  saved.set("alive", null);
}
