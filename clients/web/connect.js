// @ts-check
// The connection's side of the page: its status, what to do once welcomed (resume the
// seat, watch again, or list the tables), and every message the server sends, routed
// to the queue (table frames, in order), the lobby, the review or the error shown.

import { refreshTables, resume, watch } from "./actions.js";
import { cardName } from "./cards.js";
import { errorText, getLang, t } from "./i18n.js";
import { announceLive } from "./narrate.js";
import { Connection } from "./net.js";
import { clearQueue, enqueue } from "./queue.js";
import { onQueueMessage, onSearchingCount } from "./quickplay.js";
import { renderAll, renderConn, renderMain, renderTable, toast } from "./render.js";
import { issuedBy } from "./servers.js";
import { app } from "./state.js";
import { dispatch } from "./store.js";

export function onStatus(status) {
  dispatch("connection", status);
  renderConn();
  if (app.table) renderTable();
}

export function onReady() {
  // A ticket of the queue does not outlive its connection: the search ended with it.
  if (app.lobby.quick.state !== "idle") dispatch("quick", { state: "idle", match: null, notice: "lost" });
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
  if (dispatch("reviewMessage", msg)) {
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
      if (msg.type !== "your_turn") dispatch("received", msg.seq);
      enqueue(msg);
      return;
    case "tables":
      dispatch("tables", msg.tables);
      if (!app.table) renderMain();
      return;
    case "bye":
      if (msg.reason === "replaced") {
        app.net.stop();
        dispatch("replaced", true);
        renderAll();
      }
      return;
    case "left":
      return;
    case "searching":
      onSearchingCount(msg);
      return;
    case "spectators":
      // Not a numbered event: shown at once, not after the queue's pauses.
      if (!app.table || msg.table_id !== app.table.tableId) return;
      dispatch("spectators", msg.count);
      renderTable();
      return;
    case "online":
      dispatch("online", msg.count);
      if (!app.table) renderMain();
      return;
    case "reported":
      toast(t("chat.reported"));
      return;
    case "queue_status":
    case "match_found":
    case "joined":
      onQueueMessage(msg);
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
    const code = app.ui.asking;
    const said = () => t("hand.refused", { card: cardName(code, getLang(), app.face), reason: errorText(msg) });
    dispatch("choose", { asking: null, reason: said() });
    announceLive(said);
    renderTable();
    return;
  }
  if (app.ui.pending !== null || app.ui.lastLegal) dispatch("refused");
  toast(errorText(msg));
  renderAll();
}

// ------------------------------------------------------------------ events (DOM)
/** Talk to `url` from now on (the page's own server, or one the player agreed to). */
export function connectTo(url) {
  if (app.net) app.net.stop();
  clearQueue();
  const table = () => (app.session ? app.session.table_id : null); // in the URL: its node
  dispatch("connecting", new Connection(url, { onMessage, onStatus, onReady, table }));
  app.net.connect();
}
