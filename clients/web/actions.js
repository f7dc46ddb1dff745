// @ts-check
// What the player does: join, create, watch, leave, act, and the clicks on the hand.

import { errorText, t } from "./i18n.js";
import { cardState, handMode } from "./prompt.js";
import { clearQueue } from "./queue.js";
import { clearHash, renderAll, renderMain, renderTable, toast } from "./render.js";
import { clearSession, heartbeat, loadHistory, loadRecords, storeDiscard, storeSession } from "./session.js";
import { app } from "./state.js";
import { dispatch } from "./store.js";

function playerName() {
  return (app.lobby.name || "").trim().slice(0, 40);
}

export async function joinTable(tableId, seat, invite, options) {
  const joined = await app.net.request(
    { type: "join", table_id: tableId, seat, name: playerName(), invite: invite || null },
    ["joined"],
  );
  enterTable(joined.table_id, joined.seat, joined.token, invite, options);
  return joined;
}

export function enterTable(tableId, seat, token, invite, options) {
  clearQueue();
  dispatch("enterTable", tableId, seat, options || {});
  dispatch("tab", "table");
  storeSession({ table_id: tableId, token, seat, invite: invite || null, options: options || {} });
  heartbeat();
  clearHash();
  renderAll();
}

export async function createAndJoin(options, startNow) {
  try {
    const created = await app.net.request({ type: "create_table", options }, ["table_created"]);
    const table = created.table;
    await joinTable(table.table_id, 0, created.invite, table.options);
    if (startNow) app.net.send({ type: "start" });
  } catch (err) {
    toast(errorText(err));
  }
}

export async function watch(tableId, invite, quiet = false) {
  try {
    clearQueue();
    dispatch("enterTable", tableId, null, {}, loadHistory(tableId), loadRecords(tableId));
    await app.net.request({ type: "watch", table_id: tableId, invite: invite || null }, ["watching"]);
    storeSession({ table_id: tableId, watch: true, invite: invite || null });
    clearHash();
    renderAll();
  } catch (err) {
    dispatch("leaveTable");
    if (quiet) clearSession();
    toast(errorText(err));
    renderAll();
    refreshTables();
  }
}

/** The lobby's tables: as many pages as the player has opened (the server gives 50 a page). */
export async function refreshTables() {
  if (!app.net || !app.net.online) return;
  const lobby = app.lobby;
  try {
    let msg = await app.net.request({ type: "list_tables" }, ["tables"]);
    const tables = [...msg.tables];
    for (let page = 1; page < lobby.pages && msg.next; page++) {
      msg = await app.net.request({ type: "list_tables", after: msg.next }, ["tables"]);
      tables.push(...msg.tables);
    }
    dispatch("tables", unique(tables), msg.next ?? null);
    if (!app.table) renderMain();
  } catch {
    // offline meanwhile: the next refresh (or the reconnection) lists them again
  }
}

/** The next page of the lobby, after the tables shown. */
export async function moreTables() {
  const lobby = app.lobby;
  if (!app.net || !app.net.online || !lobby.next) return;
  try {
    const msg = await app.net.request({ type: "list_tables", after: lobby.next }, ["tables"]);
    dispatch("tables", unique([...lobby.tables, ...msg.tables]), msg.next ?? null, lobby.pages + 1);
    if (!app.table) renderMain();
  } catch (err) {
    if (err && err.code === "bad_cursor") refreshTables(); // another server: start again
    else toast(errorText(err));
  }
}

/** A table listed on two pages (it moved between the requests) is shown once. */
function unique(tables) {
  const seen = new Set();
  return tables.filter((x) => !seen.has(x.table_id) && seen.add(x.table_id));
}

export function act(action) {
  if (!app.table || !app.table.legal) return;
  if (!app.net.send({ type: "act", action })) {
    toast(t("conn.offline"));
    return;
  }
  dispatch("acted");
  renderTable();
}

export async function leave() {
  const table = app.table;
  if (table && app.net.online) {
    try {
      await app.net.request({ type: "leave" }, ["left"], { timeout: 4000 });
    } catch {
      /* leaving anyway */
    }
  }
  clearSession();
  clearQueue();
  dispatch("leaveTable");
  clearHash(); // the address named the table left
  renderAll();
  refreshTables();
}

export async function playAgain() {
  const table = app.table;
  const options = { ...(table?.summary.options || { deals: 1 }) };
  const allAi = table ? table.summary.seats.filter((s) => s.occupant === "human").length <= 1 : true;
  await leave();
  if (allAi) await createAndJoin(options, true);
}

/**
 * Answer the rematch of a finished table: accepted, this page follows the new table.
 * The answer is shown at once (no button to click twice); a refusal with rematch_closed
 * (the offer closed in a way this table's events could not tell, e.g. a player started
 * the new table) is said on the sheet, not as an error.
 */
export async function rematch(accept) {
  const table = app.table;
  const said = table ? table.rematchAnswer : null;
  if (!table || said === true || said === accept) return; // said already (an accept is final)
  const options = { ...(table.summary.options || {}) };
  dispatch("rematchAnswer", accept);
  renderTable();
  try {
    if (!accept) {
      await app.net.request({ type: "rematch", accept: false }, ["ack"]);
      return; // the rematch event tells the table; the answer stays shown
    }
    const joined = await app.net.request({ type: "rematch", accept: true }, ["joined"]);
    enterTable(joined.table_id, joined.seat, joined.token, null, options);
  } catch (err) {
    if (app.table !== table) return; // the page went elsewhere meanwhile
    if (err && err.code === "rematch_closed") dispatch("rematchClosed");
    else {
      dispatch("rematchAnswer", said); // not taken: the answer before stands
      toast(errorText(err));
    }
    renderTable();
  }
}

export function copyInvite() {
  const input = /** @type {HTMLInputElement | null} */ (document.getElementById("invite-link"));
  if (!input) return;
  input.select();
  const done = () => {
    dispatch("choose", { copied: true });
    renderTable();
    setTimeout(() => {
      dispatch("choose", { copied: false });
      renderTable();
    }, 2000);
  };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(done, done);
  else {
    try {
      document.execCommand("copy");
    } catch {
      /* the link stays selected for a manual copy */
    }
    done();
  }
}

// ------------------------------------------------------------------ hand clicks

/** Tap-then-confirm (a setting, on by default on touch screens): a first tap lifts a
 * playable card, a second tap on it (or its Play button) plays it. */
export function confirmsCards() {
  return app.settings.confirmCards;
}

export function clickCard(code, confirmed = false) {
  const table = app.table;
  if (!table || !table.deal) return;
  const mode = handMode(table, app.ui);
  const st = cardState(code, table, app.ui, mode);
  dispatch("choose", { focus: code });
  if (mode === "play") {
    if (!st.usable) {
      if (table.legal && app.ui.pending === null) askWhy(code);
      return;
    }
    if (confirmsCards() && !confirmed && app.ui.chosen !== code) {
      dispatch("choose", { reason: null, chosen: code });
      renderTable();
      return;
    }
    dispatch("choose", { reason: null, chosen: null, pending: code });
    act({ kind: "play", card: code });
    return;
  }
  if (mode === "discard") {
    if (!st.usable) {
      dispatch("choose", { reason: st.reason });
      renderTable();
      return;
    }
    dispatch("choose", { reason: null });
    toggle(code, table.legal.discard.count);
    storeDiscard(table);
    return;
  }
  if (mode === "poignee") {
    if (!st.usable) return;
    toggle(code, app.ui.poignee.size);
  }
}

/**
 * A card that cannot be played: the server's rules engine says why. The play is sent
 * as it is; the server refuses it (changing nothing) with the engine's reason
 * (must_follow_suit, must_trump, must_overtrump), which the page translates.
 */
function askWhy(code) {
  dispatch("choose", { asking: code });
  app.net.send({ type: "act", action: { kind: "play", card: code } });
}

function toggle(code, max) {
  dispatch("toggle", code, max, t("discard.full", { n: max }));
  renderTable();
}

export function resume(session) {
  // A lost connection resumes from the last event received (a short replay); a reload
  // asks for a snapshot: the table as it is now, at once, and only new events animate.
  const same = app.table && app.table.tableId === session.table_id && app.receivedSeq > 0;
  const lastSeq = same ? app.receivedSeq : null;
  if (!same) {
    clearQueue();
    const kept = [loadHistory(session.table_id), loadRecords(session.table_id)];
    dispatch("enterTable", session.table_id, session.seat, session.options || {}, ...kept);
  }
  dispatch("fastUntil", performance.now() + 1500);
  const request = { type: "resume", token: session.token };
  if (lastSeq !== null) request.last_seq = lastSeq;
  app.net
    .request(request, ["joined"])
    .then((joined) => {
      dispatch("seated", joined.seat);
      // A next_deal sent on the connection that dropped may have been lost with it: a
      // resumed seat is told its turns again, not that the table still waits for it (a late
      // next_deal is ignored), and the table would wait for its time-out.
      const table = app.table;
      if (same && table && table.ready && !table.over) app.net.send({ type: "next_deal" });
      heartbeat();
      renderAll();
    })
    .catch((err) => {
      if (err.code === "disconnected" || err.code === "timeout") return;
      clearSession();
      clearQueue();
      dispatch("leaveTable");
      toast(t("toast.seatGone"));
      renderAll();
      refreshTables();
    });
}
