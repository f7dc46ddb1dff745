// @ts-check
// The connection's side of the page: its status, what to do once welcomed (resume the
// seat, watch again, or list the tables), and every message the server sends, routed
// to the queue (table frames, in order), the lobby, the review or the error shown.

import { refreshTables, resume, watch } from "./actions.js";
import { cardName } from "./cards.js";
import { errorText, t } from "./i18n.js";
import { announceLive } from "./narrate.js";
import { Connection } from "./net.js";
import { enqueue } from "./queue.js";
import { renderAll, renderConn, renderMain, renderTable, toast } from "./render.js";
import { onReviewMessage } from "./review.js";
import { issuedBy } from "./servers.js";
import { app } from "./state.js";

export function onStatus(status) {
  app.conn = status;
  renderConn();
  if (app.table) renderTable();
}

export function onReady() {
  // A seat or table remembered from another server is not this one's: its token stays home.
  const session = app.session && issuedBy(app.session, app.net.url) ? app.session : null;
  if (session && session.token && !app.replaced) {
    resume(session);
  } else if (session && session.watch) {
    watch(session.table_id, session.invite, true);
  } else {
    refreshTables();
  }
}

/** @param {import("./messages").ServerMessage} msg */
function onMessage(msg) {
  if (onReviewMessage(app.review, msg)) {
    renderTable();
    return;
  }
  switch (msg.type) {
    case "event":
    case "snapshot":
    case "your_turn":
      if (!app.table || (msg.table_id && msg.table_id !== app.table.tableId)) return;
      if (msg.type === "event") {
        if (msg.seq <= app.receivedSeq) return; // already applied
        if (msg.seq !== app.receivedSeq + 1 && app.receivedSeq > 0) {
          app.net.drop(); // frames were lost: reconnect and resume from the last one
          return;
        }
      }
      if (msg.type !== "your_turn") app.receivedSeq = msg.seq;
      enqueue(msg);
      return;
    case "tables":
      app.lobby.tables = msg.tables;
      if (!app.table) renderMain();
      return;
    case "bye":
      if (msg.reason === "replaced") {
        app.replaced = true;
        app.net.stop();
        app.conn = "replaced";
        renderAll();
      }
      return;
    case "left":
      return;
    case "error":
      onError(msg);
      return;
    default:
      return;
  }
}

/** @param {import("./messages").Error} msg */
function onError(msg) {
  if (app.ui.asking !== null && msg.re === undefined) {
    // The refusal of a card clicked though not playable: say why, by the card.
    const card = cardName(app.ui.asking, app.lang, app.face);
    app.ui.asking = null;
    app.ui.reason = t("hand.refused", { card, reason: errorText(msg) });
    announceLive(app.ui.reason);
    renderTable();
    return;
  }
  if (app.ui.pending !== null || app.ui.lastLegal) {
    if (app.table && app.ui.lastLegal && !app.table.legal) app.table.legal = app.ui.lastLegal;
    app.ui.pending = null;
  }
  toast(errorText(msg));
  renderAll();
}

// ------------------------------------------------------------------ events (DOM)
/** Talk to `url` from now on (the page's own server, or one the player agreed to). */
export function connectTo(url) {
  if (app.net) app.net.stop();
  app.table = null;
  app.queue = [];
  app.receivedSeq = 0;
  app.net = new Connection(url, { onMessage, onStatus, onReady });
  app.net.connect();
}
