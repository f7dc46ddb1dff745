// @ts-check
// The table chat (docs/PROTOCOL.md, section 17): preset phrases during a deal (sent as
// codes, said in the reader's language), free text between deals and once the table is
// over, spectators apart; on each line a menu to mute, block or report its writer, and
// under the log the names this page muted, each with a button to unmute it (a signed-in
// player's mute is kept by the server for the account: without it, for ever).
// Built with DOM nodes and textContent only: nothing a player wrote is parsed as HTML.

import { t } from "./i18n.js";
import { app } from "./state.js";

export const PRESETS = ["hello", "good_luck", "well_played", "thanks", "oops", "sorry", "good_game", "bye"];
export const TEXT_MAX = 140;
const muted = new Map(); // names this page muted: case-folded -> as shown, for the page's life
const blocked = new Set(); // names this page blocked (case-folded): for ever, no unblock

/**
 * @param {string} tag
 * @param {string} [cls]
 * @param {string} [text]
 */
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** @param {string} label @param {() => void} onClick @param {string} [cls] */
function button(label, onClick, cls = "btn small") {
  const b = /** @type {HTMLButtonElement} */ (el("button", cls, label));
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

/** May this follower write free text now? A seat not during a deal; a spectator always. */
export function textAllowed(table) {
  if (table.seat === null || table.over || !table.deal) return true;
  return table.deal.phase === "done";
}

/** What a chat event says, in the reader's language. */
export function saidText(ev) {
  return ev.preset ? t(`preset.${ev.preset}`) : ev.text || "";
}

function send(message) {
  if (app.net) app.net.send(message);
}

function build() {
  const box = el("aside", "chat");
  box.id = "chat";
  box.setAttribute("aria-label", t("chat.title"));
  const narrow = window.matchMedia("(max-width: 700px)").matches;
  box.dataset.open = narrow ? "false" : "true";
  const toggle = button("", () => {
    box.dataset.open = box.dataset.open === "true" ? "false" : "true";
    toggle.setAttribute("aria-expanded", box.dataset.open);
    box.querySelector(".chat-unread").textContent = "";
  }, "chat-toggle");
  toggle.setAttribute("aria-expanded", box.dataset.open);
  toggle.append(el("span", "chat-title"), el("span", "chat-watchers muted small"), el("span", "chat-unread"));
  const body = el("div", "chat-body");
  const log = el("ol", "chat-log");
  log.setAttribute("aria-live", "polite");
  const presets = el("div", "chat-presets");
  const form = /** @type {HTMLFormElement} */ (el("form", "chat-form"));
  const input = /** @type {HTMLInputElement} */ (el("input", "chat-input"));
  input.type = "text";
  input.maxLength = TEXT_MAX;
  input.autocomplete = "off";
  const submit = /** @type {HTMLButtonElement} */ (el("button", "btn small chat-send"));
  submit.type = "submit";
  form.append(input, submit);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send({ type: "chat", text });
    input.value = "";
  });
  body.append(log, el("p", "chat-muted small"), presets, form, el("p", "chat-note muted small"));
  box.append(toggle, body);
  return box;
}

/** The chat lives in the table's side column, under the panel (css/chat.css): it never
 * floats over the panel, the board or the hand. */
function mount(box) {
  const side = document.getElementById("side") || document.getElementById("app");
  if (box.parentElement !== side) side.append(box);
}

/** @param {any} ev the chat event, with its seq */
function lineOf(ev, table) {
  const li = el("li", `chat-line${ev.seat === null ? " spectator" : ""}${ev.seat === table.seat && ev.seat !== null ? " mine" : ""}`);
  li.dataset.seq = String(ev.seq);
  li.dataset.name = ev.name;
  li.append(el("span", "chat-who", ev.name), el("span", "chat-said", saidText(ev)));
  if (ev.spectators_only) li.append(el("span", "chat-tag muted small", t("chat.spectatorsOnly")));
  if (ev.seat === table.seat && ev.seat !== null) return li;
  const menu = el("span", "chat-menu");
  menu.hidden = true;
  menu.append(
    button(t("chat.mute"), () => {
      muted.set(ev.name.toLowerCase(), ev.name);
      send({ type: "mute", name: ev.name });
      renderChat(true);
    }),
    button(t("chat.block"), () => {
      blocked.add(ev.name.toLowerCase());
      send({ type: "block", name: ev.name });
      renderChat(true);
    }),
    button(t("chat.report"), () => {
      send({ type: "report", seq: ev.seq });
      menu.hidden = true;
    }),
  );
  const more = button("⋯", () => {
    menu.hidden = !menu.hidden;
  }, "chat-more");
  more.setAttribute("aria-label", t("chat.actions", { name: ev.name }));
  li.append(more, menu);
  return li;
}

/** Bring the chat panel up to date with the table (``rebuild``: every line again). */
export function renderChat(rebuild = false) {
  let box = document.getElementById("chat");
  const table = app.table;
  if (!table || app.tab !== "table") {
    if (box) box.hidden = true;
    return;
  }
  if (!box) box = build();
  mount(box);
  box.hidden = false;
  const log = /** @type {HTMLElement} */ (box.querySelector(".chat-log"));
  if (rebuild || log.dataset.table !== table.tableId) {
    log.replaceChildren();
    log.dataset.table = table.tableId;
    log.dataset.last = "0";
  }
  const last = Number(log.dataset.last || 0);
  const hidden = (name) => muted.has(name.toLowerCase()) || blocked.has(name.toLowerCase());
  const fresh = table.chat.filter((ev) => ev.seq > last && !hidden(ev.name));
  for (const ev of fresh) log.append(lineOf(ev, table));
  if (table.chat.length) log.dataset.last = String(table.chat[table.chat.length - 1].seq);
  while (log.children.length > 100) log.firstElementChild.remove();
  if (fresh.length) log.scrollTop = log.scrollHeight;
  if (fresh.length && box.dataset.open !== "true") {
    const unread = box.querySelector(".chat-unread");
    unread.textContent = String(Number(unread.textContent || 0) + fresh.length);
  }
  box.querySelector(".chat-title").textContent = t("chat.title");
  const watchers = table.summary.spectators || 0;
  box.querySelector(".chat-watchers").textContent = watchers ? t("lobby.spectators", { n: watchers }) : "";
  const presets = /** @type {HTMLElement} */ (box.querySelector(".chat-presets"));
  if (presets.dataset.lang !== app.lang) {
    presets.dataset.lang = app.lang;
    presets.replaceChildren(...PRESETS.map((code) => button(t(`preset.${code}`), () => send({ type: "chat", preset: code }), "btn small preset")));
    presets.querySelectorAll("button").forEach((b, i) => b.setAttribute("data-preset", PRESETS[i]));
  }
  const allowed = textAllowed(table);
  const form = /** @type {HTMLFormElement} */ (box.querySelector(".chat-form"));
  form.hidden = !allowed;
  const input = /** @type {HTMLInputElement} */ (form.querySelector("input"));
  input.placeholder = t("chat.placeholder");
  input.setAttribute("aria-label", t("chat.placeholder"));
  form.querySelector("button").textContent = t("chat.send");
  box.querySelector(".chat-note").textContent = allowed ? "" : t("chat.presetsOnly");
  renderMuted(/** @type {HTMLElement} */ (box.querySelector(".chat-muted")));
}

/** The names this page muted, each with its unmute (what they said meanwhile stays hidden). */
function renderMuted(list) {
  const names = [...muted.entries()].filter(([key]) => !blocked.has(key));
  list.hidden = !names.length;
  list.replaceChildren(
    ...(names.length ? [el("span", "muted", t("chat.mutedNames"))] : []),
    ...names.map(([key, name]) =>
      button(t("chat.unmute", { name }), () => {
        muted.delete(key);
        send({ type: "unmute", name });
        renderChat(true);
      }),
    ),
  );
}
