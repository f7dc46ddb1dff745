// @ts-check
// CARDAVIA web client: boots the page. The modules: state (shared state), net
// (WebSocket), connect (the connection's messages), controls (the page's clicks and
// forms), queue (events shown one by one), narrate (log and live region), actions
// (what the player does), render (views), game (the table picture), table / seats /
// prompt / info / sheet / lobby / rules (HTML of each view), cards, i18n, display.

import { refreshTables } from "./actions.js";
import { installSprite } from "./cards.js";
import { connectTo } from "./connect.js";
import { onChange, onClick, onInput, onSubmit, showSettings } from "./controls.js";
import { applyDisplay } from "./display.js";
import {
  installHeader,
  layoutHand,
  readHash,
  renderAll,
  renderTable,
  setTab,
  updateTimers,
} from "./render.js";
import { sayAiPlays } from "./narrate.js";
import { queueState } from "./queue.js";
import { chooseServer } from "./servers.js";
import { heartbeat, loadSession } from "./session.js";
import { app, params } from "./state.js";
import { dispatch } from "./store.js";

function boot() {
  installSprite();
  installHeader();
  applyDisplay(app.display);
  dispatch("session", loadSession());
  readHash();
  document.addEventListener("click", onClick);
  document.addEventListener("change", onChange);
  document.addEventListener("input", onInput);
  document.addEventListener("submit", onSubmit);
  document.addEventListener("pointerdown", (e) => {
    dispatch("keyboard", false);
    const target = /** @type {Element} */ (e.target);
    if (!target.closest?.(".controls, #display-toggle")) showSettings(false);
  });
  document.addEventListener("keydown", (e) => {
    if (["Tab", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Enter", " "].includes(e.key)) {
      dispatch("keyboard", true);
    }
    if (e.key === "Escape" && document.querySelector(".topbar.open")) {
      showSettings(false);
      document.getElementById("display-toggle").focus();
    } else if (e.key === "Escape" && app.ui.sheetFor !== null) {
      dispatch("choose", { sheetFor: null });
      renderTable();
    }
  });
  document.getElementById("tabs").addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") setTab(app.tab === "table" ? "rules" : "table");
  });
  window.addEventListener("hashchange", () => {
    readHash();
    if (window.location.hash === "") dispatch("tab", "table");
    renderAll();
  });
  setInterval(() => {
    updateTimers();
    if (!app.table && app.tab === "table" && document.visibilityState === "visible") refreshTables();
  }, 4000);
  setInterval(() => {
    if (sayAiPlays(app.table)) renderTable(); // a grace period just ended
    updateTimers();
  }, 1000);
  setInterval(heartbeat, 2000);
  window.addEventListener("resize", layoutHand);
  const server = chooseServer(params);
  dispatch("askServer", server.ask);
  renderAll();
  connectTo(server.url);
  // A handle for tests and the curious: the state, and a way to drop the connection.
  /** @type {any} */ (window).cardavia = { app, drop: () => app.net.drop(), queue: queueState };
}

boot();
