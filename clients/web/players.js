// @ts-check
// The players page (players.html): sign up / sign in, the leaderboard, profiles with
// their rating chart and deals, and the deal viewer. Addresses are in the hash, so
// every view is a link: #/leaderboard/OFFSET, #/player/ID/OFFSET, #/deal/TABLE/N/STEP
// (.../review: its AI review opened), and the duplicate events' #/duplicate,
// #/duplicate/ID and #/duplicate/ID/deal/K (duplicate.js).

import { accountFor, changePassword, signIn, signOut } from "./account.js";
import { installSprite } from "./cards.js";
import { html, saved, setHTML } from "./dom.js";
import { dealView, eventsView, standingsView } from "./duplicate.js";
import { api, leaderboardView, loadProfile, PAGE, profileView } from "./history.js";
import { errorText, getLang, LANGS, setLang, t } from "./i18n.js";
import { Connection } from "./net.js";
import { ownServer } from "./servers.js";
import { steps, viewerView } from "./viewer.js";
import { askReview, onReviewClick, reviewButton, viewerReviewHTML } from "./viewer_review.js";
import { onReviewMessage } from "./review.js";

const page = { net: null, deal: null, steps: [], step: 0, review: null };
const face = () => saved.get("face", "marseille");

function accountView() {
  const account = accountFor(ownServer());
  if (account) {
    return html`<section class="panel" id="account">
      <p id="signed-in">${t("account.signedInAs", { name: account.name })}</p>
      <a class="btn small" href="#/player/${account.id}">${t("account.myProfile")}</a>
      <a class="btn small" href="./">${t("account.play")}</a>
      <button type="button" class="btn small" data-action="sign-out">${t("account.signOut")}</button>
      <details id="password-change">
        <summary>${t("account.changePassword")}</summary>
        <form id="password-form">
          <label>${t("account.oldPassword")} <input name="old" type="password" autocomplete="current-password" maxlength="128" required></label>
          <label>${t("account.newPassword")} <input name="new" type="password" autocomplete="new-password" minlength="8" maxlength="128" required></label>
          <button type="submit" class="btn" data-action="change-password">${t("account.changePassword")}</button>
        </form>
        <p id="password-message" role="alert"></p>
      </details>
    </section>`;
  }
  return html`<section class="panel" id="account">
    <h2>${t("account.title")}</h2>
    <form id="account-form">
      <label>${t("account.name")} <input name="name" autocomplete="username" maxlength="40" required></label>
      <label>${t("account.password")} <input name="password" type="password" autocomplete="current-password" maxlength="128" required></label>
      <button type="submit" class="btn" data-action="sign-in">${t("account.signIn")}</button>
      <button type="submit" class="btn" data-action="sign-up">${t("account.signUp")}</button>
    </form>
    <p class="muted">${t("account.why")}</p>
    <p id="account-message" role="alert"></p>
  </section>`;
}

/** The game page's header (its classes, css/header.css): the brand and the way back
 * to the lobby, then this page's places and the language. */
function header(parts) {
  const options = LANGS.map((l) => html`<option value="${l.code}" ${l.code === getLang() ? html`selected` : null}>${l.name}</option>`);
  const onDuplicate = parts[0] === "duplicate";
  const onBoard = parts[0] !== "player" && parts[0] !== "deal" && !onDuplicate;
  return html`<header class="topbar"><div class="topbar-inner">
    <a class="brand" href="./" aria-label="CARDAVIA"><svg class="brand-mark" viewBox="0 0 100 100" aria-hidden="true"><use href="#sym-star"/></svg><span>CARDAVIA</span></a>
    <nav class="tabs" aria-label="${t("players.title")}">
      <a href="./" data-nav="lobby">${t("players.back")}</a>
      <a href="#/leaderboard/0" data-nav="leaderboard"${onBoard ? html` aria-current="page"` : ""}>${t("players.leaderboard")}</a>
      <a href="#/duplicate" data-nav="duplicate"${onDuplicate ? html` aria-current="page"` : ""}>${t("duplicate.link")}</a>
    </nav>
    <label class="control lang-control"><span class="lang-word">${t("header.language")}</span> <select id="lang-select">${options}</select></label>
  </div></header>`;
}

async function route() {
  const parts = window.location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  const main = document.getElementById("players-main");
  document.title = `CARDAVIA · ${t("players.title")}`;
  setHTML(document.getElementById("players-header"), header(parts));
  try {
    if (parts[0] === "player" && /^\d+$/.test(parts[1] || "")) {
      const offset = Number(parts[2] || 0);
      const { profile, ratings, deals, tables } = await loadProfile(parts[1], offset);
      setHTML(main, html`${accountView()}${profileView(profile, ratings, deals, offset, tables)}`);
    } else if (parts[0] === "deal" && parts[1] && /^\d+$/.test(parts[2] || "")) {
      await showDeal(main, parts[1], parts[2], Number(parts[3] || 0), parts[4] === "review");
    } else if (parts[0] === "duplicate") {
      await showDuplicate(main, parts);
    } else {
      const offset = parts[0] === "leaderboard" ? Number(parts[1] || 0) : 0;
      const board = await api(`/api/leaderboard?limit=${PAGE}&offset=${offset}`);
      setHTML(main, html`${accountView()}${leaderboardView(board, offset)}`);
    }
  } catch (error) {
    setHTML(main, html`${accountView()}<p class="panel" id="players-error" role="alert">${t("players.error", { message: error.message || error.code })}</p>`);
  }
}

/** #/duplicate, #/duplicate/ID, #/duplicate/ID/deal/K (duplicate.js). */
async function showDuplicate(main, parts) {
  document.title = `CARDAVIA · ${t("duplicate.title")}`;
  if (!/^\d+$/.test(parts[1] || "")) {
    setHTML(main, eventsView(await api("/api/duplicate")));
    return;
  }
  const event = await api(`/api/duplicate/${parts[1]}?limit=500`);
  if (parts[2] === "deal" && /^\d+$/.test(parts[3] || "")) {
    setHTML(main, dealView(event, await api(`/api/duplicate/${parts[1]}/deals/${parts[3]}`)));
  } else {
    setHTML(main, standingsView(event));
  }
}

async function showDeal(main, tableId, number, step, review = false) {
  if (!page.deal || page.deal.table_id !== tableId || String(page.deal.deal_number) !== number) {
    page.deal = await api(`/api/deals/${encodeURIComponent(tableId)}/${number}`);
    page.steps = steps(page.deal);
    page.review = null;
  }
  if (review && !page.review && page.deal.sheet.status === "played") {
    page.review = askReview(page.net, page.deal); // a duplicate result's "AI review" link
    page.review.open = true;
  }
  page.step = Math.max(0, Math.min(page.steps.length - 1, Number.isFinite(step) ? step : 0));
  drawDeal(main);
}

function drawDeal(main = document.getElementById("players-main")) {
  const review = page.review && page.review.open ? viewerReviewHTML(page.deal, page.review, face()) : "";
  const played = page.deal.sheet.status === "played";
  const again = review && main.querySelector(".overlay") !== null; // fades in once, not at each progress
  setHTML(main, html`${viewerView(page.deal, page.steps, page.step, face())}${played ? reviewButton() : ""}${review}`);
  if (again) main.querySelector(".overlay")?.classList.add("redrawn");
}

function go(delta) {
  if (!page.deal || !window.location.hash.startsWith("#/deal/")) return;
  const last = page.steps.length - 1;
  const step = delta === "first" ? 0 : delta === "last" ? last : Math.max(0, Math.min(last, page.step + delta));
  page.step = step; // at once: a key pressed before the view is drawn again goes on from here
  window.location.hash = `#/deal/${page.deal.table_id}/${page.deal.deal_number}/${step}`;
}

const KEYS = { ArrowRight: 1, ArrowLeft: -1, Home: "first", End: "last" };

function onKey(event) {
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  if (event.key in KEYS && page.deal && window.location.hash.startsWith("#/deal/")) {
    event.preventDefault();
    go(KEYS[event.key]);
  }
}

async function onPasswordSubmit(form) {
  const message = document.getElementById("password-message");
  try {
    await changePassword(page.net, form.elements.old.value, form.elements.new.value);
  } catch (error) {
    message.textContent = errorText(error);
    return;
  }
  form.reset();
  message.textContent = t("account.passwordChanged");
}

async function onSubmit(event) {
  event.preventDefault();
  const form = event.target;
  if (form.id === "password-form") return onPasswordSubmit(form);
  const kind = event.submitter?.dataset.action === "sign-up" ? "sign_up" : "sign_in";
  try {
    await signIn(page.net, kind, form.elements.name.value, form.elements.password.value);
  } catch (error) {
    // Said beside the form, which keeps what was typed.
    document.getElementById("account-message").textContent = errorText(error);
    return;
  }
  await route();
}

function onReview(event) {
  const target = event.target.closest("[data-action]");
  const action = target?.dataset.action;
  if (!page.deal || !action) return false;
  if (action === "review-stored") {
    if (!page.review || page.review.status === "failed") page.review = askReview(page.net, page.deal);
    page.review.open = true;
  } else if (action === "close-review" || (action === "close-review-backdrop" && target === event.target)) {
    if (page.review) page.review.open = false;
  } else if (!page.review || !onReviewClick(page.review, action, target.dataset.arg)) {
    return false;
  }
  drawDeal();
  return true;
}

function onMessage(msg) {
  if (page.review && onReviewMessage(page.review, msg) && page.deal && window.location.hash.startsWith("#/deal/")) {
    drawDeal();
  }
}

async function onClick(event) {
  if (onReview(event)) return;
  if (event.target.closest("[data-action=sign-out]")) {
    await signOut(page.net).catch(() => {});
    page.net.stop();
    page.net.connect(); // a guest again, on a fresh connection
    await route();
  }
}

function boot() {
  installSprite(document);
  page.net = new Connection(ownServer(), { onMessage, onStatus() {}, onReady() {} });
  page.net.connect();
  document.addEventListener("submit", onSubmit);
  document.addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);
  document.addEventListener("change", (event) => {
    const select = /** @type {HTMLSelectElement} */ (event.target);
    if (select.id === "lang-select") {
      setLang(select.value);
      document.documentElement.lang = getLang();
      route();
    }
  });
  window.addEventListener("hashchange", route);
  document.documentElement.lang = getLang();
  /** @type {any} */ (window).cardaviaPlayers = page; // for tests and the console
  route();
}

boot();
