// @ts-check
// Rendering: the header, the lobby or the table, the score sheet, the rules; the
// tabs and the address; the hand's layout and keyboard walk.

import { renderChat } from "./chat.js";
import { html, setHTML } from "./dom.js";
import { DEFAULTS } from "./display.js";
import { LANGS, t } from "./i18n.js";
import { lobbyHTML } from "./lobby.js";
import { rulesHTML } from "./rules.js";
import { reviewHTML } from "./review.js";
import { seatedAs } from "./seats.js";
import { sheetHTML } from "./sheet.js";
import { app } from "./state.js";
import { dispatch } from "./store.js";
import { tableParts } from "./table.js";

/** The link that invites a friend: to take a seat while the table waits for players, to
 * watch once the game is under way (no seat is free then); it names the table and who invites. */
export function inviteLink() {
  const s = app.session;
  const table = app.table;
  if (!s || !table) return null;
  const base = `${window.location.origin}${window.location.pathname}`;
  const kind = table.summary.status === "waiting" ? "join" : "watch";
  const p = new URLSearchParams({ [kind]: table.tableId });
  if (s.invite) p.set("invite", s.invite);
  if (table.summary.options.name) p.set("table", table.summary.options.name);
  const me = table.seat !== null ? table.summary.seats[table.seat] : null;
  if (me && me.name) p.set("from", me.name);
  return `${base}#${p.toString()}`;
}

function onHandKey(e) {
  const buttons = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#hand .card"))];
  const i = buttons.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  if (i < 0) return;
  let next = null;
  if (e.key === "ArrowRight" || e.key === "ArrowDown") next = Math.min(buttons.length - 1, i + 1);
  else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = Math.max(0, i - 1);
  else if (e.key === "Home") next = 0;
  else if (e.key === "End") next = buttons.length - 1;
  if (next === null) return;
  e.preventDefault();
  buttons[i].tabIndex = -1;
  buttons[next].tabIndex = 0;
  buttons[next].focus();
  dispatch("choose", { focus: buttons[next].dataset.card });
}

export function setTab(tab) {
  dispatch("tab", tab);
  const hash = tab === "rules" ? "#rules" : "";
  if (window.location.hash !== hash) window.history.replaceState(null, "", `${window.location.pathname}${window.location.search}${hash}`);
  renderAll();
  document.getElementById(`tab-${tab}`)?.focus();
}

export function readHash() {
  const hash = window.location.hash.replace(/^#/, "");
  if (hash === "rules") {
    dispatch("tab", "rules");
    return;
  }
  const p = new URLSearchParams(hash);
  const id = p.get("join") || p.get("watch");
  if (id) {
    // What the link says of the table and its sender is only shown (escaped), never trusted.
    const said = { name: (p.get("table") || "").slice(0, 60), from: (p.get("from") || "").slice(0, 40) };
    dispatch("invite", { table_id: id, invite: p.get("invite") || null, watchOnly: !p.get("join"), ...said });
    dispatch("tab", "table");
  }
}

/** The table followed, in the address bar: reloading goes back to it (the stored seat is
 * resumed first), and the address is its invitation (to sit while it waits, else to watch). */
function showTableAddress() {
  const link = inviteLink();
  const hash = link ? link.slice(link.indexOf("#")) : "";
  if (hash && app.tab === "table" && window.location.hash !== hash) {
    window.history.replaceState(null, "", `${window.location.pathname}${window.location.search}${hash}`);
  }
}

export function clearHash() {
  if (window.location.hash && window.location.hash !== "#rules") {
    window.history.replaceState(null, "", `${window.location.pathname}${window.location.search}`);
  }
  dispatch("invite", null);
}

let toastTimer = null;

export function toast(text) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.hidden = true;
  }, 4500);
}

function renderHeader() {
  document.documentElement.lang = app.lang;
  document.title = `CARDAVIA · ${t("app.title")}`;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n]"))) el.textContent = t(el.dataset.i18n);
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n-label]"))) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  const lang = /** @type {HTMLSelectElement} */ (document.getElementById("lang-select"));
  setHTML(lang, html`${LANGS.map((l) => html`<option value="${l.code}"${l.code === app.lang ? html` selected` : ""}>${l.name}</option>`)}`);
  lang.value = app.lang;
  const face = /** @type {HTMLSelectElement} */ (document.getElementById("face-select"));
  setHTML(face, html`${["marseille", "french"].map((f) => html`<option value="${f}"${f === app.face ? html` selected` : ""}>${t(`face.${f}`)}</option>`)}`);
  face.value = app.face;
  for (const box of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("[data-setting]"))) box.checked = Boolean(app.settings[box.dataset.setting]);
  for (const tab of ["table", "rules"]) {
    const btn = document.getElementById(`tab-${tab}`);
    btn.setAttribute("aria-selected", String(app.tab === tab));
    btn.tabIndex = app.tab === tab ? 0 : -1;
    document.getElementById(`view-${tab}`).hidden = app.tab !== tab;
  }
  renderConn();
}

export function renderConn() {
  const el = document.getElementById("conn");
  if (!el) return;
  el.dataset.status = app.conn;
  el.textContent = t(`conn.${app.conn}`);
  renderAccount();
}

/** Who is signed in (the server's welcome said): the header's link to the players page
 * names the account and opens its profile; a guest sees the plain link. */
function renderAccount() {
  const account = app.net && app.net.account;
  for (const link of /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll(".players-link, .menu-link"))) {
    const signedIn = link.classList.contains("menu-link") ? t("account.signedInAs", { name: account?.name }) : account?.name;
    link.textContent = account ? signedIn : t("players.link");
    link.href = account ? `players.html#/player/${account.id}` : "players.html";
    link.title = account ? t("account.signedInAs", { name: account.name }) : "";
  }
}

export function renderMain() {
  renderChat();
  // The header's column follows the view under it (css/header.css).
  document.getElementById("app").dataset.view = app.tab === "rules" ? "rules" : app.table ? "table" : "lobby";
  if (app.tab === "rules") {
    setHTML(document.getElementById("view-rules"), rulesHTML(app.lang));
    return;
  }
  const view = document.getElementById("view-table");
  if (!app.table) {
    view.dataset.mode = "lobby";
    const account = (app.net && app.net.account) || null;
    setHTML(view, lobbyHTML({ ...app.lobby, face: app.face, lang: app.lang, account }));
    return;
  }
  renderTable();
}

function ensureTableSkeleton(view) {
  if (view.dataset.mode === "table") return;
  view.dataset.mode = "table";
  document.getElementById("app").dataset.view = "table";
  view._html = null;
  setHTML(
    view,
    html`<div class="game"><div class="board-wrap"><div class="board" id="board"><div id="seats"></div><div class="centre" id="centre" aria-live="off"></div><div class="conn-banner" id="conn-banner" role="status" hidden></div></div><div class="prompt" id="prompt" aria-live="polite"></div><div class="hand" id="hand"></div></div><div class="side-column" id="side"><aside class="info" id="info"></aside></div><div id="sheet-layer"></div></div>`,
  );
  view.querySelector("#hand").addEventListener("keydown", onHandKey);
}

export function renderTable() {
  if (app.tab !== "table" || !app.table) return;
  const view = document.getElementById("view-table");
  ensureTableSkeleton(view);
  const table = app.table;
  const ctx = {
    lang: app.lang,
    face: app.face,
    selected: app.ui.selected,
    reason: app.ui.reason,
    poignee: app.ui.poignee,
    pool: app.ui.pool,
    focus: app.ui.focus,
    pending: app.ui.pending,
    seen: app.ui.seen,
    log: app.ui.log.map((line) => line()),
    announce: app.ui.announce ? { key: app.ui.announce.key, text: app.ui.announce.text() } : null,
    inviteLink: inviteLink(),
    copied: app.ui.copied,
    reconnecting: app.conn !== "online" && app.conn !== "replaced",
    replaced: app.conn === "replaced",
    chosen: app.ui.chosen,
    confirmLeave: app.ui.confirmLeave,
    confirmChelem: app.ui.confirmChelem,
  };
  const parts = tableParts(table, ctx);
  const game = /** @type {HTMLElement} */ (view.querySelector(".game"));
  game.dataset.phase = parts.phase;
  game.dataset.mine = String(Boolean(table.legal));
  setHTML(document.getElementById("seats"), parts.seats);
  setHTML(document.getElementById("centre"), parts.centre);
  setHTML(document.getElementById("prompt"), parts.prompt);
  setHTML(document.getElementById("hand"), parts.hand);
  layoutHand();
  setHTML(document.getElementById("info"), parts.info);
  renderChat();
  showTableAddress();
  const banner = document.getElementById("conn-banner");
  banner.hidden = app.conn === "online";
  setHTML(
    banner,
    app.conn === "replaced"
      ? html`<span>${t("conn.replacedLong")}</span> <button type="button" class="btn small" data-action="take-back">${t("conn.takeBack")}</button>`
      : html`<span class="spinner" aria-hidden="true"></span> ${t(`conn.${app.conn}`)}`,
  );
  const entry = app.ui.sheetFor !== null ? table.history.find((h) => h.deal_number === app.ui.sheetFor) : null;
  const layer = document.getElementById("sheet-layer");
  const reviewing = app.review && app.ui.reviewOpen && app.review.tableId === table.tableId;
  const kept = sheetState(layer);
  const opened = setHTML(layer, reviewing ? reviewHTML(seatedAs(table, table.history.find((h) => h.deal_number === app.review.deal)?.seats), app.review, ctx) : entry ? sheetHTML(table, entry) : html``);
  if (opened) restoreSheet(layer, kept);
  if (opened && entry && !layer.contains(document.activeElement)) {
    const primary = /** @type {HTMLElement | null} */ (layer.querySelector(".sheet .btn.primary") || layer.querySelector(".sheet .btn"));
    if (primary) primary.focus({ preventScroll: true });
  }
  updateTimers();
  if (app.focusTurn) focusTurn();
}

/** What a redraw of the open sheet would lose: where it was scrolled, which parts were unfolded. */
function sheetState(layer) {
  const sheet = layer.querySelector(".sheet");
  if (!sheet) return null;
  const open = [...sheet.querySelectorAll("details")].map((d) => d.open);
  return { kind: sheet.className, deal: sheet.dataset.deal, scroll: sheet.scrollTop, open };
}

/**
 * The same sheet drawn again (a review's progress, its next decision, a sheet's "waiting
 * for"): it neither fades in again nor jumps back to its top, and what was unfolded stays so.
 */
function restoreSheet(layer, kept) {
  const sheet = layer.querySelector(".sheet");
  if (!kept || !sheet || sheet.className !== kept.kind || sheet.dataset.deal !== kept.deal) return;
  sheet.closest(".overlay")?.classList.add("redrawn");
  sheet.querySelectorAll("details").forEach((folded, i) => {
    if (i < kept.open.length) folded.open = kept.open[i];
  });
  sheet.scrollTop = kept.scroll;
}

/** A new turn: bring the keyboard focus to it, unless the player is busy elsewhere. */
function focusTurn() {
  dispatch("focusDone");
  if (!app.keyboardUser) return; // a mouse or touch player keeps the page as it is
  const active = document.activeElement;
  const idle = !active || active === document.body || active.closest("#hand, #prompt, #centre, #seats");
  if (!idle || document.querySelector(".overlay")) return;
  const target = /** @type {HTMLElement | null} */ (
    document.querySelector("#prompt .btn.primary:not([disabled])") ||
    document.querySelector('#hand .card[tabindex="0"]')
  );
  if (target) target.focus({ preventScroll: true });
}

/** The narrowest strip of an overlapped card that stays easy to read and to tap. */
const MIN_STRIP_PX = 30;
/** How much of a card a row below leaves in view: its index and a thumb's tap. */
const MIN_ROW_PX = 56;

/**
 * Overlap the cards of my hand on one row when each keeps a strip of MIN_STRIP_PX or more;
 * else (a phone) lay them in even rows, each row over the bottom of the one above, so
 * that every card shows its index and a tap target at least MIN_ROW_PX tall.
 */
export function layoutHand() {
  const row = /** @type {HTMLElement | null} */ (document.querySelector("#hand .hand-cards"));
  if (!row) return;
  const cards = row.querySelectorAll(".card");
  if (!cards.length) return;
  const width = row.parentElement.clientWidth - 8;
  const card = cards[0].getBoundingClientRect().width || 60;
  const n = cards.length;
  const fits = Math.max(1, Math.floor((width - card) / Math.max(MIN_STRIP_PX, card * 0.3)) + 1);
  const rows = Math.ceil(n / fits);
  const perRow = Math.ceil(n / rows);
  const step = Math.min(perRow > 1 ? (width - card) / (perRow - 1) : card, card * 0.64);
  row.style.setProperty("--overlap", `${(card - step).toFixed(1)}px`);
  row.style.setProperty("--row-overlap", `${Math.max(0, card * 1.6 - MIN_ROW_PX).toFixed(1)}px`);
  // As wide as one full row, so that the rows break after perRow cards.
  row.style.maxWidth = rows > 1 ? `${(card + (perRow - 1) * step + 0.5).toFixed(1)}px` : "";
  row.classList.toggle("wrap", rows > 1);
}

/** A link named another server: say which, above the lobby or the table, and connect
 * there only if the player agrees (servers.js). */
function renderNotice() {
  const url = app.lobby.askServer;
  const notice = url
    ? html`<section class="panel invited ask-server" aria-labelledby="ask-server-title"><h2 id="ask-server-title">${t("server.askTitle")}</h2><p>${t("server.askText")}</p><p><code data-field="asked-server">${url}</code></p><div class="buttons"><button type="button" class="btn primary" data-action="server-stay">${t("server.stay")}</button><button type="button" class="btn" data-action="server-connect">${t("server.connect")}</button></div></section>`
    : html``;
  const el = document.getElementById("notice");
  setHTML(el, notice);
  el.hidden = !url;
}

export function renderAll() {
  renderHeader();
  renderNotice();
  renderMain();
}

export function updateTimers() {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".timer[data-deadline]"))) {
    const left = Math.max(0, Math.round((Number(el.dataset.deadline) - Date.now()) / 1000));
    el.textContent = `${left}s`;
    el.classList.toggle("low", left <= 10);
  }
}

export function installHeader() {
  const sliders = document.getElementById("sliders");
  const rows = Object.keys(DEFAULTS).map(
    (key) =>
      html`<label class="slider" for="slider-${key}"><span data-i18n="display.${key}"></span><input type="range" id="slider-${key}" min="0" max="100" step="1" value="${app.display[key]}" data-slider="${key}"><output id="value-${key}" for="slider-${key}">${app.display[key]}%</output></label>`,
  );
  setHTML(sliders, html`${rows}`);
}
